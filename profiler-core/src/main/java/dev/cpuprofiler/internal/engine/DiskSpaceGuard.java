package dev.cpuprofiler.internal.engine;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether the profiler may write to a filesystem now: it keeps a floor of free space on every filesystem it writes
 * to, so it never fills a disk the application needs, and never lets JFR fill one: JFR stops the whole JVM ("An
 * irrecoverable error in Jfr. Shutting down VM") when its repository cannot be written.
 *
 * <p>The automatic floor is 5% of the filesystem, at least 64 MB and at most 512 MB. At least 64 MB because JFR
 * holds up to 10 MB of events in memory ({@code memorysize}) that it writes out at any flush, a repository chunk
 * grows to 12 MB before it rotates and the look-back keeps about two of them; at most 512 MB because on a large disk a
 * gigabyte free is still plenty for a profile of a few megabytes.
 */
public final class DiskSpaceGuard {

    /** Floor value meaning "5% of the filesystem, between 64 MB and 512 MB". */
    public static final long AUTO = -1;
    static final long AUTO_MIN = 64L << 20;
    static final long AUTO_MAX = 512L << 20;
    static final double AUTO_SHARE = 0.05;

    /** Free and total bytes of the filesystem holding an existing path. */
    @FunctionalInterface
    public interface SpaceReader {
        Space read(Path existing) throws IOException;
    }

    /**
     * @param usable bytes this process may still write
     * @param total the filesystem's size
     */
    public record Space(long usable, long total) {
    }

    static final String JFR_CONSEQUENCE = "; JFR stops the whole JVM when it cannot write its repository, so the "
            + "profiler does not record through JFR while this lasts";

    private final long floor;
    private final SpaceReader reader;
    private final JfrRepository jfrRepository;

    /** @param floorBytes {@link #AUTO}, or the bytes to keep free (0 turns the check off) */
    public DiskSpaceGuard(long floorBytes) {
        this(floorBytes, new FileStoreReader(), new JfrRepository());
    }

    public DiskSpaceGuard(long floorBytes, SpaceReader reader, JfrRepository jfrRepository) {
        if (floorBytes < 0 && floorBytes != AUTO) {
            throw new IllegalArgumentException("floor must be AUTO or at least 0, was " + floorBytes);
        }
        this.floor = floorBytes;
        this.reader = reader;
        this.jfrRepository = jfrRepository;
    }

    /** The automatic floor. */
    public static DiskSpaceGuard auto() {
        return new DiskSpaceGuard(AUTO);
    }

    /** The floor that applies to a filesystem of this size. */
    public long floorFor(long totalBytes) {
        if (floor != AUTO) {
            return floor;
        }
        return Math.max(AUTO_MIN, Math.min(AUTO_MAX, (long) (totalBytes * AUTO_SHARE)));
    }

    /**
     * Why nothing should be written to {@code dir} now, or empty when its filesystem has more than the floor free
     * (and the directory, or its nearest existing parent, can be written).
     * A path that does not exist yet is judged by its nearest existing parent. When the free space cannot be read at
     * all it answers empty: the check guards against a filling disk, not against an exotic filesystem.
     *
     * @param what who writes there, for the message ("JFR's repository", "the work directory")
     */
    public Optional<String> refusal(Path dir, String what) {
        return check(dir).map(c -> c.ok() ? null : c.describe(what));
    }

    /**
     * Why JFR should not record now, or empty: its repository's filesystem, and the one its recording is dumped to
     * (null when it is not dumped), must both stay above the floor.
     */
    public Optional<String> jfrRefusal(Path dumpDirectory) {
        Optional<String> repository = refusal(jfrRepository.location(), "JFR's repository");
        if (repository.isPresent()) {
            return repository.map(r -> r + JFR_CONSEQUENCE);
        }
        return dumpDirectory == null ? Optional.empty()
                : refusal(dumpDirectory, "the profiler's work directory, where JFR's recording is dumped");
    }

    /** Where JFR writes. */
    public Path jfrRepository() {
        return jfrRepository.location();
    }

    /** The free space where {@code dir} is, against the floor; empty when it cannot be read. */
    public Optional<Check> check(Path dir) {
        if (floor == 0) {
            return Optional.empty();
        }
        Path existing = nearestExisting(dir);
        if (existing == null) {
            return Optional.empty();
        }
        try {
            Space space = reader.read(existing);
            return Optional.of(new Check(dir, space.usable(), space.total(), floorFor(space.total()),
                    Files.isWritable(existing)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * One reading.
     *
     * @param path the path asked about
     * @param usableBytes free bytes this process may write there
     * @param totalBytes the filesystem's size
     * @param floorBytes the floor that applies
     * @param writable whether this process may write there at all (not a read-only mount, permissions)
     */
    public record Check(Path path, long usableBytes, long totalBytes, long floorBytes, boolean writable) {

        public boolean ok() {
            return writable && usableBytes >= floorBytes;
        }

        /**
         * Why nothing should be written here, naming who writes ({@code what}) but not the path: the message reaches
         * the endpoint's readers, and the status's {@code disk.places} names each place's path once.
         */
        public String describe(String what) {
            if (!writable) {
                return what + " cannot be written: a read-only filesystem, or no permission (its path: the status's "
                        + "disk.places)";
            }
            return "only " + mb(usableBytes) + " of " + mb(totalBytes) + " free on the filesystem of " + what
                    + ", below the profiler's floor of " + mb(floorBytes) + " (profiler.cpu.min-free-disk-space)";
        }
    }

    static String mb(long bytes) {
        double mb = bytes / (1024.0 * 1024.0);
        return mb >= 10 || mb == Math.rint(mb) ? Math.round(mb) + " MB" : String.format(Locale.ROOT, "%.1f MB", mb);
    }

    private static Path nearestExisting(Path dir) {
        Path p = dir.toAbsolutePath();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        return p;
    }

    /** The platform's filesystems; finding a path's mount reads the mount table, so each store is looked up once. */
    static final class FileStoreReader implements SpaceReader {

        private final Map<Path, FileStore> stores = new ConcurrentHashMap<>();

        @Override
        public Space read(Path existing) throws IOException {
            FileStore store = stores.get(existing);
            if (store == null) {
                store = Files.getFileStore(existing);
                if (stores.size() < 64) {
                    stores.put(existing, store);
                }
            }
            return new Space(store.getUsableSpace(), store.getTotalSpace());
        }
    }
}
