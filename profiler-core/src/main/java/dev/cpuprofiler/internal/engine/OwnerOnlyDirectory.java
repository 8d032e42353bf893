package dev.cpuprofiler.internal.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Creates a directory (and missing parents) that only this user may read: profiles hold method and thread names,
 * which other users of the machine have no business reading.
 */
public final class OwnerOnlyDirectory {

    private OwnerOnlyDirectory() {
    }

    /** Creates {@code dir} with mode {@code rwx------} where the filesystem has POSIX permissions; no-op if it exists. */
    public static Path create(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return dir;
        }
        if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
        }
        return Files.createDirectories(dir);
    }
}
