package dev.cpuprofiler.internal.cpu;

import java.util.Arrays;
import java.util.List;

/**
 * One line of {@code /proc/self/cgroup}: {@code hierarchy-id:controller-list:cgroup-path}.
 * cgroup v2 has the single line {@code 0::/path}; v1 has one line per hierarchy, e.g. {@code 4:cpu,cpuacct:/docker/abc}.
 *
 * @param hierarchyId 0 for the v2 hierarchy
 * @param controllers the v1 controllers of that hierarchy (including {@code name=...} entries); empty for v2
 * @param path the process's cgroup within the hierarchy, as seen from its cgroup namespace
 */
record ProcCgroupEntry(int hierarchyId, List<String> controllers, String path) {

    public ProcCgroupEntry {
        controllers = List.copyOf(controllers);
    }

    /**
     * @throws IllegalArgumentException when the line is not in the kernel's format
     */
    public static ProcCgroupEntry parse(String line) {
        // The path itself may contain ':', so split into at most three fields.
        String[] fields = line.split(":", 3);
        if (fields.length != 3 || !fields[2].startsWith("/")) {
            throw new IllegalArgumentException("not a /proc/self/cgroup line: '" + line + "'");
        }
        int id;
        try {
            id = Integer.parseInt(fields[0]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a /proc/self/cgroup line: '" + line + "'", e);
        }
        List<String> controllers = fields[1].isEmpty() ? List.of() : Arrays.asList(fields[1].split(","));
        return new ProcCgroupEntry(id, controllers, fields[2]);
    }

    /** Whether this is the cgroup v2 (unified) hierarchy. */
    public boolean isUnified() {
        return hierarchyId == 0 && controllers.isEmpty();
    }
}
