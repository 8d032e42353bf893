package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.Profile;

import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.OwnerOnlyDirectory;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each profile to a directory: one file per {@link ProfileFile} ({@code <id>.collapsed.txt} and
 * {@code <id>.html} in production) and, when a JFR engine
 * recorded it, {@code <id>.jfr}. Files and the directory are readable by the owner only (a profile shows
 * class and method names, thread names, and the shape of the code). Only the newest {@code retention}
 * profiles are kept; files this writer did not name are never touched. A failure (read-only or full disk)
 * is logged once per streak and leaves the in-memory profile intact; nothing is written while the directory's
 * filesystem is down to the free-space floor, so profiles never fill a disk the application needs.
 */
public final class ProfileFileWriter {

    private static final Logger log = LoggerFactory.getLogger(ProfileFileWriter.class);
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final String JFR = ".jfr";

    private final Path directory;
    private final int retention;
    private final DiskSpaceGuard diskSpace;
    private final List<ProfileFile> files;
    /** The files this writer names: {@code <id><extension>} for each of its files and for the recording. */
    private final Pattern profileFile;
    private boolean failing;

    public ProfileFileWriter(Path directory, int retention, List<ProfileFile> files) {
        this(directory, retention, DiskSpaceGuard.auto(), files);
    }

    public ProfileFileWriter(Path directory, int retention, DiskSpaceGuard diskSpace, List<ProfileFile> files) {
        this.directory = Objects.requireNonNull(directory, "directory");
        this.files = List.copyOf(files);
        this.profileFile = Pattern.compile("(\\d{8}T\\d{6}Z-[a-z]+-\\d+)(" + Stream.concat(this.files.stream()
                .map(ProfileFile::extension), Stream.of(JFR)).map(Pattern::quote).collect(Collectors.joining("|"))
                + ")");
        this.diskSpace = Objects.requireNonNull(diskSpace, "diskSpace");
        if (retention < 1) {
            throw new IllegalArgumentException("retention must be at least 1");
        }
        this.retention = retention;
    }

    public Path directory() {
        return directory;
    }

    /** Writes the profile's files; returns the profile pointing at its kept {@code .jfr}, if any. */
    public synchronized Profile write(Profile profile) {
        try {
            Optional<String> full = diskSpace.refusal(directory, "profiler.cpu.output-directory");
            if (full.isPresent()) {
                throw new FloorReached(full.get());
            }
            OwnerOnlyDirectory.create(directory);
            for (ProfileFile file : files) {
                write(directory.resolve(profile.id() + file.extension()), out -> file.writer().write(profile, out));
            }
            Profile result = profile;
            if (profile.jfrFile() != null && Files.exists(profile.jfrFile())) {
                Path target = directory.resolve(profile.id() + JFR);
                move(profile.jfrFile(), target);
                setOwnerOnly(target, OWNER_FILE);
                result = profile.withJfrFile(target);
            }
            applyRetention();
            if (failing) {
                log.info("Writing profiles to {} works again", directory);
                failing = false;
            }
            log.debug("Wrote profile {} to {}", profile.id(), directory);
            return result;
        } catch (IOException | RuntimeException e) {
            if (!failing) {
                log.warn("Cannot write profile {} to {}: {}; it stays available in memory and over the endpoint",
                        profile.id(), directory, e instanceof FloorReached ? e.getMessage() : e.toString());
                failing = true;
            } else {
                log.debug("Still cannot write profiles to {}: {}", directory, e.toString());
            }
            return profile;
        }
    }

    /** The directory's filesystem is down to the free-space floor. */
    private static final class FloorReached extends IOException {
        FloorReached(String message) {
            super(message);
        }
    }

    private interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    private void write(Path target, Body body) throws IOException {
        Path tmp = directory.resolve("." + target.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        createOwnerOnlyFile(tmp);
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                body.writeTo(out);
            }
            move(tmp, target);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private void createOwnerOnlyFile(Path file) throws IOException {
        if (posix()) {
            FileAttribute<Set<PosixFilePermission>> attr = PosixFilePermissions.asFileAttribute(OWNER_FILE);
            try {
                Files.createFile(file, attr);
            } catch (FileAlreadyExistsException e) {
                setOwnerOnly(file, OWNER_FILE);
            }
        } else {
            Files.createFile(file);
        }
    }

    private void setOwnerOnly(Path file, Set<PosixFilePermission> perms) throws IOException {
        if (posix()) {
            Files.setPosixFilePermissions(file, perms);
        }
    }

    private boolean posix() {
        return directory.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /** Deletes the files of all but the newest {@code retention} profiles (ids sort by time). */
    private void applyRetention() throws IOException {
        TreeSet<String> ids = new TreeSet<>();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> list = Files.list(directory)) {
            list.forEach(p -> {
                Matcher m = profileFile.matcher(p.getFileName().toString());
                if (m.matches()) {
                    ids.add(m.group(1));
                    files.add(p);
                }
            });
        }
        while (ids.size() > retention) {
            String oldest = ids.pollFirst();
            for (Path p : files) {
                Matcher m = profileFile.matcher(p.getFileName().toString());
                if (m.matches() && m.group(1).equals(oldest)) {
                    Files.deleteIfExists(p);
                }
            }
            log.debug("Deleted profile {} from {} (keeping {})", oldest, directory, retention);
        }
    }
}
