package dev.cpuprofiler.internal.cpu;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The CPU time of a cgroup v2 group: the {@code usage_usec} line of {@code cpu.stat} (microseconds), times 1000.
 * {@code cpu.stat} exists in every v2 cgroup, with or without the cpu controller enabled.
 */
public final class CgroupV2CpuSource extends CgroupCounterSource {

    private static final byte[] KEY = {'u', 's', 'a', 'g', 'e', '_', 'u', 's', 'e', 'c', ' '};

    /** @param cgroupDirectory the v2 cgroup directory (holding {@code cpu.stat}) */
    public CgroupV2CpuSource(Path cgroupDirectory) {
        super(CpuSourceKind.CGROUP_V2, new CounterFile(cgroupDirectory.resolve("cpu.stat")));
    }

    @Override
    public long cpuTimeNanos() throws IOException {
        ByteBuffer content = file.read();
        int limit = content.limit();
        // Scan line starts for "usage_usec " by hand: no String, no allocation.
        int lineStart = 0;
        while (lineStart < limit) {
            if (startsWithKey(content, lineStart, limit)) {
                return CounterFile.parseNumber(content, lineStart + KEY.length, file.path()) * 1000L;
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
        if (at + KEY.length > limit) {
            return false;
        }
        for (int k = 0; k < KEY.length; k++) {
            if (content.get(at + k) != KEY[k]) {
                return false;
            }
        }
        return true;
    }
}
