package dev.cpuprofiler.internal.cpu;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the process's cgroup of one hierarchy can be read. Paths are as the process sees them (e.g.
 * {@code /sys/fs/cgroup/cpu/kubepods/pod1}); {@link #resolve(Path, String)} places them under the injected
 * filesystem root.
 *
 * @param version v1 or v2
 * @param cgroupPath the process's cgroup as listed in {@code /proc/self/cgroup}, e.g. {@code /kubepods/pod1/abc}
 * @param mountPoint where the hierarchy is mounted, e.g. {@code /sys/fs/cgroup/cpu}
 * @param path the cgroup's directory: the mount point plus the cgroup path relative to the mount's root
 */
record CgroupDirectory(Version version, String cgroupPath, String mountPoint, String path) {

    /** Whether the process sits in the root of the hierarchy as its namespace shows it. */
    public boolean isNamespaceRoot() {
        return cgroupPath.equals("/");
    }

    /** This directory, then each parent up to and including the mount point: where an ancestor's limit applies too. */
    public List<String> selfAndAncestors() {
        List<String> result = new ArrayList<>();
        String current = path;
        result.add(current);
        while (current.length() > mountPoint.length() && current.startsWith(mountPoint)) {
            int slash = current.lastIndexOf('/');
            current = slash <= 0 ? "/" : current.substring(0, slash);
            if (current.length() < mountPoint.length()) {
                break;
            }
            result.add(current);
        }
        return result;
    }

    /** An absolute path as the process sees it, placed under {@code fsRoot} (which is {@code /} in production). */
    public static Path resolve(Path fsRoot, String absolutePath) {
        String relative = absolutePath.startsWith("/") ? absolutePath.substring(1) : absolutePath;
        return relative.isEmpty() ? fsRoot : fsRoot.resolve(relative);
    }

    /** The two cgroup interfaces the kernel offers; their file names and units differ. */
    enum Version {
        V1("cgroup v1"),
        V2("cgroup v2");

        private final String label;

        Version(String label) {
            this.label = label;
        }

        /** {@code cgroup v1} or {@code cgroup v2}, as used in log lines and origins. */
        public String label() {
            return label;
        }
    }
}
