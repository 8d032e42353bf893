package dev.cpuprofiler.internal.cpu;

import java.util.Arrays;
import java.util.List;

/**
 * The fields of one {@code /proc/self/mountinfo} line this package needs:
 * {@code 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue}
 * (fields: id, parent, major:minor, root, mount point, mount options, optional fields..., {@code -},
 * filesystem type, source, super options).
 *
 * @param root the directory of the filesystem that is mounted (field 4), unescaped
 * @param mountPoint where it is mounted (field 5), unescaped
 * @param fsType {@code cgroup}, {@code cgroup2}, ...
 * @param superOptions per-superblock options; for cgroup v1 they name the controllers (e.g. {@code rw,cpu,cpuacct})
 */
record MountInfoEntry(String root, String mountPoint, String fsType, List<String> superOptions) {

    public MountInfoEntry {
        superOptions = List.copyOf(superOptions);
    }

    /**
     * @throws IllegalArgumentException when the line is not in the kernel's format
     */
    public static MountInfoEntry parse(String line) {
        String[] fields = line.trim().split(" +");
        // Optional fields (shared:N, master:N, ...) come before a lone "-", so find it rather than count.
        int separator = -1;
        for (int i = 6; i < fields.length; i++) {
            if (fields[i].equals("-")) {
                separator = i;
                break;
            }
        }
        if (fields.length < 7 || separator < 0 || separator + 1 >= fields.length) {
            throw new IllegalArgumentException("not a /proc/self/mountinfo line: '" + line + "'");
        }
        List<String> superOptions = separator + 3 < fields.length
                ? Arrays.asList(fields[separator + 3].split(","))
                : List.of();
        return new MountInfoEntry(unescape(fields[3]), unescape(fields[4]), fields[separator + 1], superOptions);
    }

    /** Whether this mount is a cgroup v1 hierarchy carrying the given controller (e.g. {@code cpu}). */
    public boolean isCgroupV1With(String controller) {
        return fsType.equals("cgroup") && superOptions.contains(controller);
    }

    public boolean isCgroupV2() {
        return fsType.equals("cgroup2");
    }

    /** The kernel writes space, tab, newline and backslash in paths as octal escapes such as {@code \040}. */
    static String unescape(String field) {
        if (field.indexOf('\\') < 0) {
            return field;
        }
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && isOctal(field, i + 1) && isOctal(field, i + 2)
                    && isOctal(field, i + 3)) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isOctal(String s, int index) {
        return index < s.length() && s.charAt(index) >= '0' && s.charAt(index) <= '7';
    }
}
