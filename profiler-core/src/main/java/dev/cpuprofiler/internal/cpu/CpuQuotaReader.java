package dev.cpuprofiler.internal.cpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the tightest CPU quota that applies to a cgroup: its own and each ancestor's up to the mount point, since a
 * parent's limit caps its children too. {@code max} (v2) and {@code -1} (v1) mean no quota at that level.
 */
final class CpuQuotaReader {

    private static final Logger log = LoggerFactory.getLogger(CpuQuotaReader.class);

    private final Path fsRoot;

    public CpuQuotaReader(Path fsRoot) {
        this.fsRoot = fsRoot;
    }

    /** The smallest quota/period among the directory and its ancestors; empty when none sets a quota. */
    public Optional<CpuQuota> tightest(CgroupDirectory cgroup) {
        CpuQuota best = null;
        for (String directory : cgroup.selfAndAncestors()) {
            Optional<CpuQuota> quota = read(cgroup.version(), directory);
            if (quota.isPresent() && (best == null || quota.get().cpus() < best.cpus())) {
                best = quota.get();
            }
        }
        return Optional.ofNullable(best);
    }

    private Optional<CpuQuota> read(CgroupVersion version, String directory) {
        Path dir = CgroupDirectory.resolve(fsRoot, directory);
        try {
            if (version == CgroupVersion.V2) {
                return parseCpuMax(directory, Files.readString(dir.resolve("cpu.max")));
            }
            String quota = Files.readString(dir.resolve("cpu.cfs_quota_us")).trim();
            String period = Files.readString(dir.resolve("cpu.cfs_period_us")).trim();
            return quota(version, quota, period, directory);
        } catch (NoSuchFileException e) {
            // Normal: the v2 root has no cpu.max, nor does a group without the cpu controller.
            return Optional.empty();
        } catch (IOException | IllegalArgumentException e) {
            log.debug("Ignoring unreadable CPU quota in {}: {}", directory, e.toString());
            return Optional.empty();
        }
    }

    /** {@code cpu.max} is {@code "$MAX $PERIOD"}, MAX being {@code max} for no limit. */
    private static Optional<CpuQuota> parseCpuMax(String directory, String content) {
        String[] fields = content.trim().split("\\s+");
        if (fields.length == 0 || fields[0].equals("max")) {
            return Optional.empty();
        }
        if (fields.length != 2) {
            throw new IllegalArgumentException("cpu.max is not '$MAX $PERIOD': '" + content.trim() + "'");
        }
        return quota(CgroupVersion.V2, fields[0], fields[1], directory);
    }

    private static Optional<CpuQuota> quota(CgroupVersion version, String quota, String period, String directory) {
        long q = Long.parseLong(quota);
        long p = Long.parseLong(period);
        if (q < 0) {
            return Optional.empty(); // -1: no quota
        }
        return Optional.of(new CpuQuota(version, q, p, directory));
    }
}
