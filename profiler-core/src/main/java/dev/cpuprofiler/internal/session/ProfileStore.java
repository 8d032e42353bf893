package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.EngineUnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last N profiles of each {@link RetentionGroup} in memory, newest first, bounded in count per group and in bytes
 * over all (the profile just stored is always kept, even alone over the byte bound). On-demand profiles never push out
 * an incident's (CPU-triggered or saturation) profile: when bytes are short, on-demand profiles go first, and one being
 * stored pushes out on-demand profiles only. References of normal are kept apart: not counted, never pushed out, the
 * newest kept and every older one a kept profile's comparison names (so that profile can still be shown against it),
 * the rest dropped. {@value #LATEST} names the newest profile that is not a reference. Optionally each profile is also
 * written to an output directory; a write failure is logged by the writer and never loses the in-memory profile.
 *
 * <p>The engine's recording ({@code .jfr}, served as {@code format=jfr}) is kept with its profile: moved to the
 * output directory when there is one (where the writer's retention governs it), otherwise left in the work directory
 * and owned by this store, its bytes counted in the byte bound, and deleted when the profile is dropped or the store
 * closes. A recording that would not fit the bound beside what its profile may not push out, or whose disk is down to
 * its free-space floor, is deleted before anything is pushed out, and its profile kept without it: a recording never
 * costs a profile, nor the disk space the next one needs.
 */
public final class ProfileStore implements AutoCloseable {

    /** The id that names the newest profile. */
    public static final String LATEST = CpuProfiler.LATEST;

    private static final Logger log = LoggerFactory.getLogger(ProfileStore.class);

    private final int maxProfiles;
    private final long maxBytes;
    private final ProfileFileWriter writer;
    private final DiskSpaceGuard diskSpace;
    private final Deque<Kept> profiles = new ArrayDeque<>();
    private long bytes;
    private final List<Consumer<Profile>> listeners = new CopyOnWriteArrayList<>();

    /** A profile and the bytes of the recording this store owns (0 when it owns none). */
    private record Kept(Profile profile, long recordingBytes) {
        long bytes() {
            return estimatedBytes(profile) + recordingBytes;
        }

        RetentionGroup group() {
            return RetentionGroup.of(profile.trigger());
        }
    }

    /**
     * The store these options describe: {@code retained-profiles} of each kind within {@code retained-size}.
     *
     * @param writer where each profile is also written ({@code output-directory}), or null
     */
    public static ProfileStore of(CpuProfilerOptions options, ProfileFileWriter writer, DiskSpaceGuard diskSpace) {
        return new ProfileStore(options.getRetainedProfiles(), options.getRetainedSize(), writer, diskSpace);
    }

    /** @param writer writes each profile to disk, or null to keep profiles in memory only */
    public ProfileStore(int maxProfiles, long maxBytes, ProfileFileWriter writer) {
        this(maxProfiles, maxBytes, writer, null);
    }

    /**
     * @param writer writes each profile to disk, or null to keep profiles in memory only
     * @param diskSpace the free-space floor a kept recording must leave, or null to check none
     */
    public ProfileStore(int maxProfiles, long maxBytes, ProfileFileWriter writer, DiskSpaceGuard diskSpace) {
        if (maxProfiles < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("the store must hold at least one profile");
        }
        this.maxProfiles = maxProfiles;
        this.maxBytes = maxBytes;
        this.writer = writer;
        this.diskSpace = diskSpace;
    }

    /**
     * Keeps the profile (and writes it out, if configured); returns it as stored. The store takes over the
     * profile's {@code .jfr} in the work directory: the writer moves it to the output directory, otherwise it stays
     * where it is until the profile is dropped.
     */
    public Profile add(Profile profile) {
        Profile stored = writer == null ? profile : writer.write(profile);
        long recordingBytes = 0;
        if (stored.recording().jfrFile() != null
                && stored.recording().jfrFile().equals(profile.recording().jfrFile())) {
            // Not moved to an output directory: the recording is this store's to keep, within its bounds.
            String refusal = refusal(stored.recording().jfrFile());
            recordingBytes = refusal == null ? sizeOf(stored.recording().jfrFile()) : -1;
            if (recordingBytes <= 0) {
                log.debug("Not keeping the recording of profile {}: {}", stored.id(),
                        refusal != null ? refusal : "empty or unreadable");
                delete(stored.recording().jfrFile());
                stored = ProfileFileWriter.withJfrFile(stored, null);
                recordingBytes = 0;
            }
        }
        RetentionGroup group = RetentionGroup.of(stored.trigger());
        List<Path> dropped = new ArrayList<>();
        synchronized (this) {
            // Decided before anything is pushed out: a recording that would not fit beside what this profile may not
            // push out is refused, and costs no other profile.
            if (recordingBytes > 0 && estimatedBytes(stored) + recordingBytes > room(group)) {
                dropped.add(stored.recording().jfrFile());
                stored = ProfileFileWriter.withJfrFile(stored, null);
                recordingBytes = 0;
                log.debug("Not keeping the recording of profile {}: larger than what retained-size ({} bytes) leaves "
                        + "it", stored.id(), maxBytes);
            }
            Kept added = new Kept(stored, recordingBytes);
            profiles.addFirst(added);
            bytes += added.bytes();
            while (group.counted() && count(group) > maxProfiles) {
                dropOldest(group, added, dropped);
            }
            boolean more = true;
            while (bytes > maxBytes && more) {
                more = dropOldestGivingWay(group, added, dropped);
            }
            dropUnusedReferences(dropped);
        }
        dropped.forEach(ProfileStore::delete);
        // Outside the lock and after the profile is readable: a listener may look it up, and a failing one must not
        // lose the profile the session recorded.
        for (Consumer<Profile> listener : listeners) {
            try {
                listener.accept(stored);
            } catch (RuntimeException e) {
                log.warn("A listener of stored profiles failed on {}: {}", stored.id(), e.toString());
            }
        }
        return stored;
    }

    /** Tells the listener of every profile stored from now on (see {@code CpuProfiler.addStoredProfileListener}). */
    public void addListener(Consumer<Profile> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Stops telling the listener. */
    public void removeListener(Consumer<Profile> listener) {
        listeners.remove(listener);
    }

    /** Deletes the recordings this store owns; the profiles stay readable without them. */
    @Override
    public void close() {
        List<Path> owned = new ArrayList<>();
        synchronized (this) {
            List<Kept> kept = new ArrayList<>(profiles);
            profiles.clear();
            for (Kept k : kept) {
                if (k.recordingBytes() > 0) {
                    owned.add(k.profile().recording().jfrFile());
                    bytes -= k.recordingBytes();
                    profiles.addLast(new Kept(ProfileFileWriter.withJfrFile(k.profile(), null), 0));
                } else {
                    profiles.addLast(k);
                }
            }
        }
        owned.forEach(ProfileStore::delete);
    }

    /** The bytes a profile of this group may take: the bound less what it may not push out. */
    private long room(RetentionGroup group) {
        long kept = 0;
        for (Kept k : profiles) {
            if (!group.mayPushOut(k.group())) {
                kept += k.bytes();
            }
        }
        return maxBytes - kept;
    }

    private int count(RetentionGroup group) {
        int n = 0;
        for (Kept k : profiles) {
            n += k.group() == group ? 1 : 0;
        }
        return n;
    }

    /** Pushes out the oldest profile of the first group that gives way to {@code group}; false when there is none. */
    private boolean dropOldestGivingWay(RetentionGroup group, Kept added, List<Path> dropped) {
        for (RetentionGroup other : RetentionGroup.values()) {
            if (group.mayPushOut(other) && dropOldest(other, added, dropped)) {
                return true;
            }
        }
        return false;
    }

    /** Drops the oldest profile of the group, never the one just added; false when there is none. */
    private boolean dropOldest(RetentionGroup group, Kept added, List<Path> dropped) {
        for (Iterator<Kept> it = profiles.descendingIterator(); it.hasNext();) {
            Kept k = it.next();
            if (k != added && k.group() == group) {
                it.remove();
                bytes -= k.bytes();
                if (k.recordingBytes() > 0) {
                    dropped.add(k.profile().recording().jfrFile());
                }
                log.debug("Dropped profile {} from memory (keeping {} profiles, {} bytes)", k.profile().id(),
                        profiles.size(), bytes);
                return true;
            }
        }
        return false;
    }

    /**
     * Drops every reference but the newest that no kept profile's comparison names: once its last profile is gone, an
     * older reference is of no use.
     */
    private void dropUnusedReferences(List<Path> dropped) {
        Set<String> named = new HashSet<>();
        for (Kept k : profiles) {
            if (k.profile().comparison() != null) {
                named.add(k.profile().comparison().reference());
            }
        }
        boolean newest = true;
        for (Iterator<Kept> it = profiles.iterator(); it.hasNext();) {
            Kept k = it.next();
            if (k.group() != RetentionGroup.REFERENCE) {
                continue;
            }
            if (!newest && !named.contains(k.profile().id())) {
                it.remove();
                bytes -= k.bytes();
                if (k.recordingBytes() > 0) {
                    dropped.add(k.profile().recording().jfrFile());
                }
                log.debug("Dropped reference {} from memory: a newer one is in force and no kept profile names it",
                        k.profile().id());
            }
            newest = false;
        }
    }

    /** Why a recording cannot be kept where it is (its disk is at the floor), or null. */
    private String refusal(Path recording) {
        if (diskSpace == null || recording.getParent() == null) {
            return null;
        }
        try {
            return diskSpace.refusal(recording.getParent(), "the profiler's work directory").orElse(null);
        } catch (RuntimeException e) {
            // The refusal is served (a profile's note): the exception's text goes only to the log.
            log.warn("Could not check the free space for {}", recording, e);
            return "the free space of the profiler's work directory could not be checked ("
                    + EngineUnavailableException.unexpected(e) + ")";
        }
    }

    /** The recording's size, or -1 when it cannot be read (then, as when empty, it is not kept). */
    private static long sizeOf(Path recording) {
        try {
            return Files.size(recording);
        } catch (IOException e) {
            log.debug("Cannot read the size of {}: {}", recording, e.toString());
            return -1;
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.debug("Cannot delete {}: {}", file, e.toString());
        }
    }

    /** A profile by id, or the newest that is not a reference for {@value #LATEST}. */
    public synchronized Optional<Profile> get(String id) {
        if (LATEST.equals(id)) {
            return latest();
        }
        for (Kept k : profiles) {
            if (k.profile().id().equals(id)) {
                return Optional.of(k.profile());
            }
        }
        return Optional.empty();
    }

    /**
     * The newest profile that is not a reference of normal: an hourly reference never takes an incident's place as the
     * latest (the status, {@code GET /latest}).
     */
    public synchronized Optional<Profile> latest() {
        return newest(false);
    }

    /** The reference of normal in force: the newest one recorded, if any. */
    public synchronized Optional<Profile> reference() {
        return newest(true);
    }

    private Optional<Profile> newest(boolean reference) {
        for (Kept k : profiles) {
            if ((k.group() == RetentionGroup.REFERENCE) == reference) {
                return Optional.of(k.profile());
            }
        }
        return Optional.empty();
    }

    /** Every profile held, newest first. */
    public synchronized List<Profile> list() {
        return profiles.stream().map(Kept::profile).collect(Collectors.toCollection(ArrayList::new));
    }

    /** A generous estimate of the heap a profile holds, for the byte bound. */
    static long estimatedBytes(Profile p) {
        // ~33 B/node in the snapshot's arrays plus the frame names it references.
        return 512L + p.tree().size() * 96L + (p.cpu().concurrency() == null ? 0
                : 256L + p.cpu().concurrency().threads().size() * 128L) + (p.lookback() == null ? 0
                : 256L + p.lookback().tree().size() * 96L) + p.requests().endpoints().size() * 128L
                + (p.requests().endpointTree() == null ? 0 : p.requests().endpointTree().size() * 96L)
                + (p.requests().spanTree() == null ? 0 : p.requests().spanTree().size() * 96L)
                + (p.saturation() == null ? 0 : p.saturation().tree().size() * 96L);
    }

    /** The profiles' estimated heap plus the bytes of the recordings this store keeps. */
    public synchronized long estimatedBytes() {
        return bytes;
    }

    public synchronized int size() {
        return profiles.size();
    }

    synchronized boolean contains(String id) {
        for (Iterator<Kept> it = profiles.iterator(); it.hasNext();) {
            if (it.next().profile().id().equals(id)) {
                return true;
            }
        }
        return false;
    }
}
