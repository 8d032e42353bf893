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
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;

/**
 * A profile's bytes in one format and view (a flame graph, a pprof file), rendered at most {@code maxConcurrent} at a
 * time, so that readers cannot keep the application's cores busy, and kept for the next reader within
 * {@code maxBytes}: the least recently read go first, and a profile's renders go with the profile. Beyond the limit a
 * render is refused at once ({@link Optional#empty()}), and the endpoint answers 503 with {@code Retry-After}.
 */
final class ProfileRenders {

    /** Enough for the flame graphs and pprof files of a few typical profiles (each some 100 kB to 1 MB). */
    static final long MAX_BYTES = 8L << 20;
    /** Renders at once: a second reader is not refused, and half of a 4-core machine stays the application's. */
    static final int MAX_CONCURRENT = 2;

    /** How a profile becomes bytes: {@link ProfileFormat#bytes}. */
    @FunctionalInterface
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
    /** Least recently read first. */
    private final LinkedHashMap<Key, Rendered> kept = new LinkedHashMap<>(16, 0.75f, true);
    private long keptBytes;

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
        keep(key, new Rendered(profile, bytes), retained);
        return Optional.of(bytes);
    }

    /** The bytes kept now, for tests. */
    long keptBytes() {
        synchronized (kept) {
            return keptBytes;
        }
    }

    private void keep(Key key, Rendered rendered, Collection<Profile> retained) {
        Set<Profile> live = Collections.newSetFromMap(new IdentityHashMap<>());
        live.addAll(retained);
        synchronized (kept) {
            kept.values().removeIf(r -> !live.contains(r.profile()) && forget(r));
            if (!live.contains(rendered.profile()) || rendered.bytes().length > maxBytes) {
                return;
            }
            Rendered before = kept.put(key, rendered);
            keptBytes += rendered.bytes().length - (before == null ? 0 : before.bytes().length);
            for (Iterator<Map.Entry<Key, Rendered>> oldest = kept.entrySet().iterator();
                    keptBytes > maxBytes && oldest.hasNext();) {
                forget(oldest.next().getValue());
                oldest.remove();
            }
        }
    }

    /** Counts a kept render out; true, for {@code removeIf}. */
    private boolean forget(Rendered r) {
        keptBytes -= r.bytes().length;
        return true;
    }
}
