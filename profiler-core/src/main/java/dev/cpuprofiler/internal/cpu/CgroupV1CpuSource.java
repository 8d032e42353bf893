package dev.cpuprofiler.internal.cpu;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** The CPU time of a cgroup v1 {@code cpuacct} group: {@code cpuacct.usage}, already in nanoseconds. */
final class CgroupV1CpuSource extends CgroupCounterSource {

    /** @param cgroupDirectory the cpuacct cgroup directory (holding {@code cpuacct.usage}) */
    public CgroupV1CpuSource(Path cgroupDirectory) {
        super(CpuSourceKind.CGROUP_V1, new CounterFile(cgroupDirectory.resolve("cpuacct.usage")));
    }

    @Override
    public long cpuTimeNanos() throws IOException {
        ByteBuffer content = file.read();
        return CounterFile.parseNumber(content, 0, file.path());
    }
}
