package dev.cpuprofiler.internal.cpu;

import dev.cpuprofiler.internal.cpu.CgroupDirectory.Version;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Finds the process's own cgroup directories from {@code /proc/self/cgroup} and {@code /proc/self/mountinfo}.
 * {@code /sys/fs/cgroup} itself is not assumed to be the process's cgroup: outside a cgroup namespace it is the
 * whole machine's root.
 */
final class CgroupDiscovery {

    private final Path fsRoot;

    /** @param fsRoot {@code /} in production; tests point it at a fake tree */
    public CgroupDiscovery(Path fsRoot) {
        this.fsRoot = fsRoot;
    }

    /**
     * @throws IOException when {@code /proc/self/cgroup} or {@code /proc/self/mountinfo} cannot be read or parsed
     */
    public Layout discover() throws IOException {
        List<ProcCgroupEntry> cgroups = parseLines("/proc/self/cgroup", ProcCgroupEntry::parse);
        List<MountInfoEntry> mounts = parseLines("/proc/self/mountinfo", MountInfoEntry::parse);

        CgroupDirectory v1Cpu = null;
        CgroupDirectory v1Cpuacct = null;
        CgroupDirectory v2 = null;
        for (ProcCgroupEntry entry : cgroups) {
            if (entry.isUnified()) {
                v2 = locate(Version.V2, entry.path(), mounts, MountInfoEntry::isCgroupV2);
            } else {
                if (entry.controllers().contains("cpu")) {
                    v1Cpu = locate(Version.V1, entry.path(), mounts, m -> m.isCgroupV1With("cpu"));
                }
                if (entry.controllers().contains("cpuacct")) {
                    v1Cpuacct = locate(Version.V1, entry.path(), mounts, m -> m.isCgroupV1With("cpuacct"));
                }
            }
        }
        return new Layout(v1Cpu, v1Cpuacct, v2);
    }

    /** The directory of {@code cgroupPath} in the hierarchy mounted where {@code isHierarchy} matches; null if unmounted. */
    private static CgroupDirectory locate(Version version, String cgroupPath, List<MountInfoEntry> mounts,
            Predicate<MountInfoEntry> isHierarchy) {
        // A hierarchy may be mounted several times (bind mounts); prefer the mount whose root holds the cgroup,
        // the deepest such root, else the first one listed.
        MountInfoEntry best = null;
        int bestRootLength = -1;
        for (MountInfoEntry mount : mounts) {
            if (!isHierarchy.test(mount)) {
                continue;
            }
            int rootLength = relativeTo(mount.root(), cgroupPath) != null ? mount.root().length() : -1;
            if (best == null || rootLength > bestRootLength) {
                best = mount;
                bestRootLength = rootLength;
            }
        }
        if (best == null) {
            return null;
        }
        String relative = relativeTo(best.root(), cgroupPath);
        // Not under the mount's root: the mount shows a different part of the tree (cgroup namespace, or a
        // container that mounted only its own cgroup); the mount point is the best view of our cgroup.
        String directory = relative == null ? best.mountPoint() : join(best.mountPoint(), relative);
        return new CgroupDirectory(version, cgroupPath, best.mountPoint(), directory);
    }

    /** {@code path} relative to {@code root} ("" when equal, "/a/b" below it), or null when not below it. */
    private static String relativeTo(String root, String path) {
        if (root.equals("/")) {
            return path.equals("/") ? "" : path;
        }
        if (path.equals(root)) {
            return "";
        }
        return path.startsWith(root + "/") ? path.substring(root.length()) : null;
    }

    private static String join(String mountPoint, String relative) {
        if (relative.isEmpty()) {
            return mountPoint;
        }
        return mountPoint.equals("/") ? relative : mountPoint + relative;
    }

    private <T> List<T> parseLines(String file, Function<String, T> parser) throws IOException {
        Path path = CgroupDirectory.resolve(fsRoot, file);
        List<String> lines;
        try {
            lines = Files.readAllLines(path);
        } catch (IOException e) {
            throw new IOException("cannot read " + file + " (" + path + "): " + e, e);
        }
        List<T> result = new ArrayList<>(lines.size());
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            try {
                result.add(parser.apply(line));
            } catch (IllegalArgumentException e) {
                throw new IOException("cannot parse " + path + ": " + e.getMessage(), e);
            }
        }
        return result;
    }

    /**
     * The process's cgroups that matter for CPU: the v1 {@code cpu} controller (quota), the v1 {@code cpuacct}
     * controller (usage) and the v2 hierarchy. Each is {@code null} when the process has none or it is not mounted.
     * On a hybrid host all three exist; v1 wins because that is where the cpu controller lives.
     */
    record Layout(CgroupDirectory v1Cpu, CgroupDirectory v1Cpuacct, CgroupDirectory v2) {

        /** Where the cumulative CPU-usage counter lives: {@code cpuacct.usage} (v1) or {@code cpu.stat} (v2). */
        public Optional<CgroupDirectory> usageDirectory() {
            return Optional.ofNullable(v1Cpuacct != null ? v1Cpuacct : v2);
        }

        /** Where the CPU quota is set: {@code cpu.cfs_quota_us} (v1) or {@code cpu.max} (v2). */
        public Optional<CgroupDirectory> quotaDirectory() {
            return Optional.ofNullable(v1Cpu != null ? v1Cpu : v2);
        }
    }
}
