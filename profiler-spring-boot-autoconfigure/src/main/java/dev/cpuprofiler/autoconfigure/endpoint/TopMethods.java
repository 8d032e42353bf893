package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.Profile;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Each retained profile's top method by self time (look-back part included, as in its {@code hotMethods}), for the
 * status's list of profiles. Found once per profile (a walk of its whole tree) and remembered by id: a stored profile
 * never changes, and the status page asks every few seconds.
 */
final class TopMethods {

    private final Map<String, Optional<String>> byId = new ConcurrentHashMap<>();

    @Nullable String of(Profile p) {
        return byId.computeIfAbsent(p.id(), id -> p.hotMethod()).orElse(null);
    }

    /** Forgets the profiles the store has dropped. */
    void retain(List<Profile> kept) {
        if (byId.size() > kept.size()) {
            Set<String> ids = kept.stream().map(Profile::id).collect(Collectors.toSet());
            byId.keySet().retainAll(ids);
        }
    }
}
