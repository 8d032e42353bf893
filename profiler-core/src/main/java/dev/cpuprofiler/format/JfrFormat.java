package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The engine's own JFR recording, as it wrote it: the session's samples only (the look-back part was never in it),
 * and without the application's configuration unless {@code profiler.cpu.jfr.include-system-info} asked for it.
 */
final class JfrFormat extends FormatBase {

    JfrFormat() {
        super("jfr", "application/octet-stream", ".jfr");
    }

    @Override
    public Optional<String> missing(Profile p) {
        Path file = p.recording().jfrFile();
        if (file == null) {
            return Optional.of("Profile '" + p.id() + "' has no JFR recording: its engine (" + p.recording().engine()
                    + ") handed over no file, or it was not kept (larger than retained-size, or its disk down to "
                    + "min-free-disk-space)");
        }
        return RecordingFile.readable(file) ? Optional.empty()
                : Optional.of("Profile '" + p.id() + "' has no JFR recording any more");
    }

    /** Copies the recording; the view does not apply (the endpoint refuses a look-back view other than include). */
    @Override
    public void write(Profile p, ProfileView view, OutputStream out) throws IOException {
        Path file = p.recording().jfrFile();
        if (file == null) {
            throw new IOException(missing(p).orElseThrow());
        }
        try (InputStream in = Channels.newInputStream(RecordingFile.open(file))) {
            in.transferTo(out);
        }
    }
}
