package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.Profile;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Optional;

/**
 * The engine's own recording ({@link Profile#jfrFile()}), sent as Pyroscope's {@code jfr} format. The store keeps it while the
 * profile is retained (within {@code retained-size}); a profile whose recording was not kept (too large, a disk at
 * its floor) or is gone has none.
 */
public final class JfrBody implements ProfileBody {

    static final String FORMAT = "jfr";

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public Optional<byte[]> encode(Profile profile) throws IOException {
        if (profile.jfrFile() == null || !Files.isRegularFile(profile.jfrFile())) {
            return Optional.empty();
        }
        return Optional.of(Files.readAllBytes(profile.jfrFile()));
    }
}
