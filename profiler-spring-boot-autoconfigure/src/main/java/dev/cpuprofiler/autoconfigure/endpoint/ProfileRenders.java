package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import java.io.IOException;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;

/**
 * A profile's bytes in one format and view (a flame graph, a pprof file), rendered at most {@code maxConcurrent} at a
 * time, so that readers cannot keep the application's cores busy, and kept for the next reader within
 * {@code maxBytes}: the least recently read go first, and a profile's renders go with the profile. Beyond the limit a
 * render is refused at once ({@link Optional#empty()}), and the endpoint answers 503.
 */
final class ProfileRenders {

    /** Enough for the flame graphs and pprof files of a few typical profiles (each some 100 kB to 1 MB). */
    static final long MAX_BYTES = 8L << 20;
    /** Renders at once: a second reader is not refused, and half of a 4-core machine stays the application's. */
    static final int MAX_CONCURRENT = 2;

    /** How a profile becomes bytes: {@link ProfileFormat#bytes}. */
    interface Renderer {
        byte[] render(Profile profile, ProfileFormat format, ProfileView view) throws IOException;
    }

    private record Key(String profileId, ProfileFormat format, ProfileView view) {
    }

    /** The profile itself, compared by identity: a dropped profile's id may come back (a restart, a test). */
    private record Rendered(Profile profile, byte[] bytes) {
    }

    private final long maxBytes;
    private final Semaphore renders;
    private final Renderer renderer;
    private final LinkedHashMap<Key, Rendered> kept = new LinkedHashMap<>(16, 0.75f, true); // least recently read first

    ProfileRenders(long maxBytes, int maxConcurrent, Renderer renderer) {
        this.maxBytes = maxBytes;
        this.renders = new Semaphore(maxConcurrent);
        this.renderer = renderer;
    }

    ProfileRenders() {
        this(MAX_BYTES, MAX_CONCURRENT, (profile, format, view) -> format.bytes(profile, view));
    }

    /**
     * The bytes, kept or rendered now; empty when {@code maxConcurrent} renders are under way. The array is shared
     * with later readers: never change it.
     *
     * @param retained the profiles the store still keeps: the renders of any other are forgotten
     */
    Optional<byte[]> bytes(Profile profile, ProfileFormat format, ProfileView view, Collection<Profile> retained)
            throws IOException {
        Key key = new Key(profile.id(), format, view);
        synchronized (kept) {
            Rendered r = kept.get(key);
            if (r != null && r.profile() == profile) {
                return Optional.of(r.bytes());
            }
        }
        if (!renders.tryAcquire()) {
            return Optional.empty();
        }
        byte[] bytes;
        try {
            bytes = renderer.render(profile, format, view);
        } finally {
            renders.release();
        }
        Set<Profile> live = Collections.newSetFromMap(new IdentityHashMap<>());
        live.addAll(retained);
        synchronized (kept) {
            kept.values().removeIf(r -> !live.contains(r.profile()));
            if (live.contains(profile) && bytes.length <= maxBytes) {
                kept.put(key, new Rendered(profile, bytes));
            }
            Iterator<Rendered> oldest = kept.values().iterator();
            for (long total = keptBytes(); total > maxBytes; oldest.remove()) {
                total -= oldest.next().bytes().length;
            }
        }
        return Optional.of(bytes);
    }

    /** The bytes kept now. */
    long keptBytes() {
        synchronized (kept) {
            return kept.values().stream().mapToLong(r -> r.bytes().length).sum();
        }
    }
}
