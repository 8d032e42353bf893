package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.session.Profile;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Optional;

/**
 * The engine's own recording ({@link Profile#jfrFile()}), sent as Pyroscope's {@code jfr} format. It exists only for
 * profiles written to {@code profiler.cpu.output-directory}: otherwise the store deletes the recording once it has
 * the merged stacks.
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
