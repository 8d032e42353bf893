package dev.cpuprofiler.internal.cpu;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A cgroup's CPU-time counter, read from one file in its directory, kept open. cgroup v1: {@code cpuacct.usage} of the
 * {@code cpuacct} group, already in nanoseconds. cgroup v2: the {@code usage_usec} line of {@code cpu.stat}
 * (microseconds), which exists in every v2 cgroup, with or without the cpu controller enabled.
 */
public final class CgroupCpuSource implements CpuUsageSource {

    private static final byte[] USAGE_USEC = {'u', 's', 'a', 'g', 'e', '_', 'u', 's', 'e', 'c', ' '};

    private final CpuSourceKind kind;
    private final CounterFile file;

    private CgroupCpuSource(CpuSourceKind kind, Path file) {
        this.kind = kind;
        this.file = new CounterFile(file);
    }

    /** @param cgroupDirectory the cpuacct cgroup directory (holding {@code cpuacct.usage}) */
    public static CgroupCpuSource v1(Path cgroupDirectory) {
        return new CgroupCpuSource(CpuSourceKind.CGROUP_V1, cgroupDirectory.resolve("cpuacct.usage"));
    }

    /** @param cgroupDirectory the v2 cgroup directory (holding {@code cpu.stat}) */
    public static CgroupCpuSource v2(Path cgroupDirectory) {
        return new CgroupCpuSource(CpuSourceKind.CGROUP_V2, cgroupDirectory.resolve("cpu.stat"));
    }

    @Override
    public long cpuTimeNanos() throws IOException {
        ByteBuffer content = file.read();
        if (kind == CpuSourceKind.CGROUP_V1) {
            return CounterFile.parseNumber(content, 0, file.path());
        }
        int limit = content.limit();
        // Scan line starts for "usage_usec " by hand: no String, no allocation.
        int lineStart = 0;
        while (lineStart < limit) {
            if (startsWithKey(content, lineStart, limit)) {
                return CounterFile.parseNumber(content, lineStart + USAGE_USEC.length, file.path()) * 1000L;
            }
            int i = lineStart;
            while (i < limit && content.get(i) != '\n') {
                i++;
            }
            lineStart = i + 1;
        }
        throw CounterFile.malformed(content, file.path(), "no usage_usec line");
    }

    private static boolean startsWithKey(ByteBuffer content, int at, int limit) {
        if (at + USAGE_USEC.length > limit) {
            return false;
        }
        for (int k = 0; k < USAGE_USEC.length; k++) {
            if (content.get(at + k) != USAGE_USEC[k]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public CpuSourceKind kind() {
        return kind;
    }

    @Override
    public String description() {
        return file.path().toString();
    }

    @Override
    public void close() {
        file.close();
    }

    @Override
    public String toString() {
        return "CgroupCpuSource[" + description() + "]";
    }
}
