package dev.cpuprofiler.internal.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Optional;
import java.util.Set;

/**
 * A directory that only this user may read and write: profiles hold method and thread names, which other users of
 * the machine have no business reading, and a directory others may write lets them plant or replace files in it.
 */
public final class OwnerOnlyDirectory {

    private OwnerOnlyDirectory() {
    }

    /** Creates {@code dir} with mode {@code rwx------} where the filesystem has POSIX permissions; no-op if it exists. */
    public static Path create(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return dir;
        }
        if (posix(dir)) {
            return Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
        }
        return Files.createDirectories(dir);
    }

    /**
     * Why an existing {@code dir} is not this user's alone, phrased to follow "must be ...": not a directory, owned by
     * another user, or writable by its group or others. Empty when it is, when it does not exist yet ({@link #create}
     * makes it owner-only), or where the filesystem has no POSIX permissions.
     *
     * @param user the user this process runs as, or null when unknown (then only the permissions are judged)
     */
    public static Optional<String> problem(Path dir, UserPrincipal user) throws IOException {
        if (!Files.exists(dir)) {
            return Optional.empty();
        }
        if (!Files.isDirectory(dir)) {
            return Optional.of("must be a directory; it is a file");
        }
        if (!posix(dir)) {
            return Optional.empty();
        }
        PosixFileAttributes attributes = Files.readAttributes(dir, PosixFileAttributes.class);
        if (user != null && !attributes.owner().equals(user)) {
            return Optional.of("must be a directory owned by the user the application runs as (" + user.getName()
                    + "); it is owned by " + attributes.owner().getName());
        }
        Set<PosixFilePermission> mode = attributes.permissions();
        if (mode.contains(PosixFilePermission.GROUP_WRITE) || mode.contains(PosixFilePermission.OTHERS_WRITE)) {
            return Optional.of("must be a directory only its owner may write; it is "
                    + PosixFilePermissions.toString(mode));
        }
        return Optional.empty();
    }

    /**
     * The user this process runs as: the owner of {@code proc/self} under {@code fsRoot} (Linux), else the user named
     * by {@code user.name}; empty when neither can be read (a container's user without a name).
     */
    public static Optional<UserPrincipal> processUser(Path fsRoot) {
        Path self = fsRoot.resolve("proc/self");
        try {
            if (Files.isDirectory(self)) {
                return Optional.of(Files.getOwner(self));
            }
        } catch (IOException | UnsupportedOperationException e) {
            // then by name
        }
        try {
            return Optional.of(fsRoot.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name")));
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    private static boolean posix(Path dir) {
        return dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
