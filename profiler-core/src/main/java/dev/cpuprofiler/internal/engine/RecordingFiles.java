package dev.cpuprofiler.internal.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates and removes the engines' recording files in the work directory. */
final class RecordingFiles {

    private static final Logger log = LoggerFactory.getLogger(RecordingFiles.class);

    private RecordingFiles() {
    }

    /**
     * A new, unique, empty {@code <recordingName>-<engine>-<random>.jfr} in the work directory (created, owner-only,
     * if missing), unless the work directory's filesystem is down to the free-space floor.
     */
    static Path create(String engineId, EngineSettings settings) throws EngineUnavailableException {
        Optional<String> full = settings.diskSpace().refusal(settings.workDirectory(), "the profiler's work "
                + "directory, where " + engineId + " writes its recording");
        if (full.isPresent()) {
            throw new EngineUnavailableException(engineId, full.get());
        }
        try {
            OwnerOnlyDirectory.create(settings.workDirectory());
            return Files.createTempFile(settings.workDirectory(), settings.recordingName() + "-" + engineId + "-",
                    ".jfr");
        } catch (IOException | RuntimeException e) {
            throw new EngineUnavailableException(engineId,
                    "cannot create a recording file in " + settings.workDirectory() + ": " + e, e);
        }
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.debug("could not delete {}", file, e);
        }
    }
}
