package dev.cpuprofiler.session.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates and removes the engines' recording files in the work directory. */
final class RecordingFiles {

    private static final Logger log = LoggerFactory.getLogger(RecordingFiles.class);

    private RecordingFiles() {
    }

    /** A new, unique, empty {@code <recordingName>-<engine>-<random>.jfr} in the work directory (created if missing). */
    static Path create(String engineId, EngineSettings settings) throws EngineUnavailableException {
        try {
            Files.createDirectories(settings.workDirectory());
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
