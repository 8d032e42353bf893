package dev.cpuprofiler.internal.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Comparator;
import java.util.Objects;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The profiler's private directory for engine recordings. It is named when the profiler is built and created
 * (owner-only) by the first recording that needs it, so an application that never profiles leaves nothing in the
 * temp directory, even when it is killed; a temp directory that cannot be written costs profiles, never the start.
 * {@link #close()} deletes it with everything in it, and nothing beside it.
 */
public final class WorkDirectory implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WorkDirectory.class);

    private final Path path;

    private WorkDirectory(Path path) {
        this.path = Objects.requireNonNull(path, "path");
    }

    /**
     * A new name under {@code java.io.tmpdir}: {@code cpuprofiler-<pid>-<64 random bits>}, which no other user can
     * guess and create first.
     */
    public static WorkDirectory inTemp() {
        return in(Path.of(System.getProperty("java.io.tmpdir")));
    }

    /**
     * A new name, {@code cpuprofiler-<pid>-<64 random bits>}, in a directory someone gave (the application's own,
     * perhaps with other files in it): only that new directory is the profiler's, and only it is deleted on close.
     */
    public static WorkDirectory in(Path parent) {
        return new WorkDirectory(parent.resolve("cpuprofiler-" + ProcessHandle.current().pid() + "-"
                + Long.toUnsignedString(new SecureRandom().nextLong(), 36)));
    }

    public Path path() {
        return path;
    }

    /** Deletes the directory and what the engines left in it; what cannot be deleted is logged at debug. */
    @Override
    public void close() {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    log.debug("Cannot delete {}: {}", p, e.toString());
                }
            });
        } catch (IOException e) {
            log.debug("Cannot clean up {}: {}", path, e.toString());
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
