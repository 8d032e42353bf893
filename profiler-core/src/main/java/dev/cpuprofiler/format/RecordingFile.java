package dev.cpuprofiler.format;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The engine's recording as it is served ({@code format=jfr}) and pushed: read only as a regular file, never through
 * a symbolic link, so a link planted where a recording was cannot make the profiler serve another file.
 */
public final class RecordingFile {

    private RecordingFile() {
    }

    /** Whether {@code file} is there to read: a regular file, not a link. */
    public static boolean readable(Path file) {
        return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS);
    }

    /** Opens the recording to read. @throws IOException when it is gone, a link, or not a regular file */
    public static SeekableByteChannel open(Path file) throws IOException {
        if (!readable(file)) {
            throw new IOException(file + " is not a regular file");
        }
        return Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    }
}
