package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.OwnerOnlyDirectory;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each profile to a directory: one file per {@link File} ({@code <id>.collapsed.txt} and
 * {@code <id>.html} in production) and, when a JFR engine
 * recorded it, {@code <id>.jfr}. Files and the directory are readable by the owner only (a profile shows
 * class and method names, thread names, and the shape of the code); nothing is written into a directory another user
 * owns or may write. Each file is new: a file already there under its name is never overwritten, and no link is
 * followed. Only the newest {@code retention} profiles of each {@link RetentionGroup} this writer wrote are kept; it
 * deletes nothing it did not write, so instances that share the directory (their ids differ) leave each other's
 * files alone. A failure (read-only or full disk) is logged once per streak and leaves the in-memory profile intact;
 * nothing is written while the directory's filesystem is down to the free-space floor, so profiles never fill a disk
 * the application needs.
 */
public final class ProfileFileWriter {

    private static final Logger log = LoggerFactory.getLogger(ProfileFileWriter.class);
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final String JFR = ".jfr";

    private final Path directory;
    private final int retention;
    private final DiskSpaceGuard diskSpace;
    private final List<File> files;
    private final UserPrincipal user;
    /** The files this writer wrote, per profile, oldest profile first: the only files its retention deletes. */
    private final Map<RetentionGroup, Deque<List<Path>>> written = new EnumMap<>(RetentionGroup.class);
    private boolean failing;

    public ProfileFileWriter(Path directory, int retention, List<File> files) {
        this(directory, retention, DiskSpaceGuard.auto(), files);
    }

    public ProfileFileWriter(Path directory, int retention, DiskSpaceGuard diskSpace, List<File> files) {
        this(directory, retention, diskSpace, files, OwnerOnlyDirectory.processUser(Path.of("/")).orElse(null));
    }

    /** @param user the user this process runs as, who must own the directory; null when unknown */
    public ProfileFileWriter(Path directory, int retention, DiskSpaceGuard diskSpace, List<File> files,
            UserPrincipal user) {
        this.directory = Objects.requireNonNull(directory, "directory");
        this.files = List.copyOf(files);
        this.diskSpace = Objects.requireNonNull(diskSpace, "diskSpace");
        if (retention < 1) {
            throw new IllegalArgumentException("retention must be at least 1");
        }
        this.retention = retention;
        this.user = user;
    }

    public Path directory() {
        return directory;
    }

    /** Writes the profile's files; returns the profile pointing at its kept {@code .jfr}, if any. */
    public synchronized Profile write(Profile profile) {
        List<Path> mine = new ArrayList<>();
        Profile result = profile;
        try {
            result = writeFiles(profile, mine);
            if (failing) {
                log.info("Writing profiles to {} works again", directory);
                failing = false;
            }
            log.debug("Wrote profile {} to {}", profile.id(), directory);
        } catch (IOException | RuntimeException e) {
            if (!failing) {
                log.warn("Cannot write profile {} to {}: {}; it stays available in memory and over the endpoint",
                        profile.id(), directory, e instanceof Refused ? e.getMessage() : e.toString());
                failing = true;
            } else {
                log.debug("Still cannot write profiles to {}: {}", directory, e.toString());
            }
        }
        remember(RetentionGroup.of(profile.trigger()), mine);
        return result;
    }

    private Profile writeFiles(Profile profile, List<Path> mine) throws IOException {
        Optional<String> full = diskSpace.refusal(directory, "profiler.cpu.output-directory");
        if (full.isPresent()) {
            throw new Refused(full.get());
        }
        OwnerOnlyDirectory.create(directory);
        Optional<String> shared = OwnerOnlyDirectory.problem(directory, user);
        if (shared.isPresent()) {
            throw new Refused("profiler.cpu.output-directory " + shared.get());
        }
        for (File file : files) {
            Path target = directory.resolve(profile.id() + file.extension());
            write(target, out -> file.writer().write(profile, out));
            mine.add(target);
        }
        if (profile.recording().jfrFile() != null && Files.exists(profile.recording().jfrFile())) {
            Path target = directory.resolve(profile.id() + JFR);
            publish(profile.recording().jfrFile(), target);
            mine.add(target);
            setOwnerOnly(target);
            return withJfrFile(profile, target);
        }
        return profile;
    }

    /** The directory's filesystem is down to the free-space floor, or the directory is not this user's alone. */
    private static final class Refused extends IOException {
        Refused(String message) {
            super(message);
        }
    }

    private interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Writes a file of its own name first, then gives it the target's name, unless something already has it. */
    private void write(Path target, Body body) throws IOException {
        Path tmp = posix() ? Files.createTempFile(directory, "." + target.getFileName() + ".", ".tmp",
                PosixFilePermissions.asFileAttribute(OWNER_FILE))
                : Files.createTempFile(directory, "." + target.getFileName() + ".", ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS)) {
                body.writeTo(out);
            }
            publish(tmp, target);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Gives {@code from} the name {@code to}, never replacing what is there: a hard link (atomic, fails when the name
     * is taken), else a move without replacing (where links are not supported, or across filesystems).
     */
    private static void publish(Path from, Path to) throws IOException {
        try {
            Files.createLink(to, from);
        } catch (FileAlreadyExistsException e) {
            throw e;
        } catch (UnsupportedOperationException | FileSystemException e) {
            Files.move(from, to);
            return;
        }
        try {
            Files.delete(from);
        } catch (IOException e) {
            log.debug("Cannot delete {} once it is {}: {}", from, to, e.toString());
        }
    }

    private void setOwnerOnly(Path file) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (view != null) {
            view.setPermissions(OWNER_FILE);
        }
    }

    private boolean posix() {
        return directory.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /** Keeps the newest {@code retention} profiles of the group this writer wrote; deletes the files of older ones. */
    private void remember(RetentionGroup group, List<Path> profileFiles) {
        if (profileFiles.isEmpty()) {
            return;
        }
        Deque<List<Path>> kept = written.computeIfAbsent(group, g -> new ArrayDeque<>());
        kept.addLast(List.copyOf(profileFiles));
        while (kept.size() > retention) {
            for (Path p : kept.removeFirst()) {
                try {
                    Files.deleteIfExists(p);
                    log.debug("Deleted {} (keeping {} {} profiles)", p, retention, group);
                } catch (IOException e) {
                    log.debug("Cannot delete {}: {}", p, e.toString());
                }
            }
        }
    }

    /** The profile with its recording at {@code file} (null: none kept). */
    static Profile withJfrFile(Profile p, Path file) {
        return new Profile(p.id(), p.trigger(), p.recording().withJfrFile(file), p.tree(), p.cpu(), p.requests(),
                p.lookback(), p.saturation(), p.comparison(), p.latency());
    }

    /**
     * One file the writer writes per profile: {@code <id><extension>}, with what {@code writer} writes.
     * The assembly gives it the formats' own extensions and writers.
     */
    public record File(String extension, Writer writer) {

        /** Writes one profile; does not close {@code out}. */
        @FunctionalInterface
        public interface Writer {
            void write(Profile profile, OutputStream out) throws IOException;
        }
    }
}
