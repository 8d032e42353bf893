package dev.cpuprofiler.internal.cpu;

import dev.cpuprofiler.internal.cpu.CgroupDirectory.Version;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many CPUs the process can use: the tightest cgroup quota (kept fractional) but never more than the CPUs it may
 * run on ({@code Cpus_allowed_list}). The tightest quota is the cgroup's own or an ancestor's up to the mount point,
 * since a parent's limit caps its children too; {@code max} (v2) and {@code -1} (v1) mean no quota at that level.
 * {@code Runtime.availableProcessors()} is only a last resort when the affinity is unreadable, because it rounds a
 * 1.5-CPU quota up to 2.
 */
final class EffectiveCpuCountResolver {

    private static final Logger log = LoggerFactory.getLogger(EffectiveCpuCountResolver.class);

    private final Path fsRoot;
    private final IntSupplier availableProcessors;

    /**
     * @param fsRoot {@code /} in production
     * @param availableProcessors fallback when {@code Cpus_allowed_list} cannot be read, normally
     *        {@code Runtime.getRuntime()::availableProcessors}
     */
    public EffectiveCpuCountResolver(Path fsRoot, IntSupplier availableProcessors) {
        this.fsRoot = fsRoot;
        this.availableProcessors = availableProcessors;
    }

    /** @param layout the process's cgroups, or null when none could be discovered */
    public EffectiveCpuCount resolve(CgroupDiscovery.Layout layout) {
        Optional<Quota> quota = layout == null
                ? Optional.empty()
                : layout.quotaDirectory().flatMap(this::tightest);
        EffectiveCpuCount affinity = affinity();
        if (quota.isPresent() && quota.get().cpus() <= affinity.count()) {
            Quota q = quota.get();
            EffectiveCpuCount result = new EffectiveCpuCount(q.cpus(), q.describe());
            log.debug("Effective CPU count from {} quota: {} ({})", q.version().label(), result.count(),
                    result.origin());
            return result;
        }
        EffectiveCpuCount result = quota
                .map(q -> new EffectiveCpuCount(affinity.count(),
                        affinity.origin() + ", tighter than " + q.describe()))
                .orElse(affinity);
        log.debug("Effective CPU count from {}: {} ({})",
                affinity.origin().startsWith("cpu affinity") ? "cpu affinity" : "available processors",
                result.count(), result.origin());
        return result;
    }

    /** The CPUs the process may run on, from {@code /proc/self/status}; availableProcessors only if unreadable. */
    private EffectiveCpuCount affinity() {
        Path status = CgroupDirectory.resolve(fsRoot, "/proc/self/status");
        try {
            List<String> lines = Files.readAllLines(status);
            for (String line : lines) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    int cpus = cpusInList(line.substring("Cpus_allowed_list:".length()));
                    return new EffectiveCpuCount(cpus, "cpu affinity (" + cpus + (cpus == 1 ? " CPU)" : " CPUs)"));
                }
            }
            log.debug("No Cpus_allowed_list in {}; using Runtime.availableProcessors()", status);
        } catch (IOException | IllegalArgumentException e) {
            log.debug("Cannot read Cpus_allowed_list from {} ({}); using Runtime.availableProcessors()", status,
                    e.toString());
        }
        int processors = Math.max(1, availableProcessors.getAsInt());
        return new EffectiveCpuCount(processors, "Runtime.availableProcessors() (" + processors + ")");
    }

    /** The smallest quota/period among the directory and its ancestors; empty when none sets a quota. */
    private Optional<Quota> tightest(CgroupDirectory cgroup) {
        Quota best = null;
        for (String directory : cgroup.selfAndAncestors()) {
            Optional<Quota> quota = read(cgroup.version(), directory);
            if (quota.isPresent() && (best == null || quota.get().cpus() < best.cpus())) {
                best = quota.get();
            }
        }
        return Optional.ofNullable(best);
    }

    private Optional<Quota> read(Version version, String directory) {
        Path dir = CgroupDirectory.resolve(fsRoot, directory);
        try {
            if (version == Version.V2) {
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
    private static Optional<Quota> parseCpuMax(String directory, String content) {
        String[] fields = content.trim().split("\\s+");
        if (fields.length == 0 || fields[0].equals("max")) {
            return Optional.empty();
        }
        if (fields.length != 2) {
            throw new IllegalArgumentException("cpu.max is not '$MAX $PERIOD': '" + content.trim() + "'");
        }
        return quota(Version.V2, fields[0], fields[1], directory);
    }

    private static Optional<Quota> quota(Version version, String quota, String period, String directory) {
        long q = Long.parseLong(quota);
        long p = Long.parseLong(period);
        if (q < 0) {
            return Optional.empty(); // -1: no quota
        }
        return Optional.of(new Quota(version, q, p, directory));
    }

    /**
     * How many CPUs a list in the kernel's CPU list format names ({@code Cpus_allowed_list} in
     * {@code /proc/self/status}): {@code 0-1}, {@code 0,2-5}.
     *
     * @throws IllegalArgumentException when it is not a CPU list or names none
     */
    static int cpusInList(String list) {
        String trimmed = list.trim();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("empty CPU list");
        }
        int count = 0;
        for (String part : trimmed.split(",")) {
            try {
                int dash = part.indexOf('-');
                if (dash < 0) {
                    Integer.parseInt(part.trim());
                    count++;
                } else {
                    int from = Integer.parseInt(part.substring(0, dash).trim());
                    int to = Integer.parseInt(part.substring(dash + 1).trim());
                    if (to < from) {
                        throw new IllegalArgumentException("descending CPU range '" + part + "' in '" + list + "'");
                    }
                    count += to - from + 1;
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a CPU list: '" + list + "'", e);
            }
        }
        return count;
    }

    /**
     * A CFS bandwidth limit: the group may run {@code quotaMicros} of CPU time every {@code periodMicros}.
     *
     * @param version where it was read
     * @param quotaMicros positive quota
     * @param periodMicros positive period
     * @param directory the cgroup directory that sets it (the process's own or an ancestor), as the process sees
     *     it
     */
    record Quota(Version version, long quotaMicros, long periodMicros, String directory) {

        public Quota {
            if (quotaMicros <= 0 || periodMicros <= 0) {
                throw new IllegalArgumentException("quota and period must be positive: " + quotaMicros + "/"
                        + periodMicros);
            }
        }

        /** Kept fractional: 150000/100000 is 1.5 CPUs, not 2. */
        public double cpus() {
            return (double) quotaMicros / periodMicros;
        }

        /** e.g. {@code cgroup v2 quota 150000/100000 at /sys/fs/cgroup/app}. */
        public String describe() {
            return version.label() + " quota " + quotaMicros + "/" + periodMicros + " at " + directory;
        }
    }
}
