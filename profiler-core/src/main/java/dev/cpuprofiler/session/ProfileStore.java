package dev.cpuprofiler.session;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last N profiles in memory, newest first, bounded in count and in bytes (the newest profile is always
 * kept, even alone over the byte bound). Optionally each profile is also written to an output directory;
 * a write failure is logged by the writer and never loses the in-memory profile.
 */
public final class ProfileStore {

    /** The id that names the newest profile. */
    public static final String LATEST = "latest";

    private static final Logger log = LoggerFactory.getLogger(ProfileStore.class);

    private final int maxProfiles;
    private final long maxBytes;
    private final ProfileFileWriter writer;
    private final Deque<Profile> profiles = new ArrayDeque<>();
    private long bytes;
    private final List<StoredProfileListener> listeners = new CopyOnWriteArrayList<>();

    /** @param writer writes each profile to disk, or null to keep profiles in memory only */
    public ProfileStore(int maxProfiles, long maxBytes, ProfileFileWriter writer) {
        if (maxProfiles < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("the store must hold at least one profile");
        }
        this.maxProfiles = maxProfiles;
        this.maxBytes = maxBytes;
        this.writer = writer;
    }

    /**
     * Keeps the profile (and writes it out, if configured); returns it as stored. The store owns the
     * profile's temporary {@code .jfr}: the writer moves it to the output directory, otherwise it is
     * deleted here, so recordings never pile up in the temp directory.
     */
    public Profile add(Profile profile) {
        Profile stored = profile;
        if (writer != null) {
            stored = writer.write(profile);
        }
        if (profile.jfrFile() != null && profile.jfrFile().equals(stored.jfrFile())) {
            try {
                Files.deleteIfExists(profile.jfrFile());
            } catch (IOException e) {
                log.debug("Cannot delete {}: {}", profile.jfrFile(), e.toString());
            }
            stored = stored.withJfrFile(null);
        }
        synchronized (this) {
            profiles.addFirst(stored);
            bytes += stored.estimatedBytes();
            while (profiles.size() > 1 && (profiles.size() > maxProfiles || bytes > maxBytes)) {
                Profile dropped = profiles.removeLast();
                bytes -= dropped.estimatedBytes();
                log.debug("Dropped profile {} from memory (keeping {} profiles, {} bytes)", dropped.id(),
                        profiles.size(), bytes);
            }
        }
        // Outside the lock and after the profile is readable: a listener may look it up, and a failing one must not
        // lose the profile the session recorded.
        for (StoredProfileListener listener : listeners) {
            try {
                listener.stored(stored);
            } catch (RuntimeException e) {
                log.warn("A listener of stored profiles failed on {}: {}", stored.id(), e.toString());
            }
        }
        return stored;
    }

    /** Tells the listener of every profile stored from now on (see {@link StoredProfileListener}). */
    public void addListener(StoredProfileListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Stops telling the listener. */
    public void removeListener(StoredProfileListener listener) {
        listeners.remove(listener);
    }

    /** A profile by id, or the newest for {@value #LATEST}. */
    public synchronized Optional<Profile> get(String id) {
        if (LATEST.equals(id)) {
            return latest();
        }
        for (Profile p : profiles) {
            if (p.id().equals(id)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    public synchronized Optional<Profile> latest() {
        return Optional.ofNullable(profiles.peekFirst());
    }

    /** Every profile held, newest first. */
    public synchronized List<Profile> list() {
        return new ArrayList<>(profiles);
    }

    public synchronized long estimatedBytes() {
        return bytes;
    }

    public synchronized int size() {
        return profiles.size();
    }

    synchronized boolean contains(String id) {
        for (Iterator<Profile> it = profiles.iterator(); it.hasNext();) {
            if (it.next().id().equals(id)) {
                return true;
            }
        }
        return false;
    }
}
