package dev.cpuprofiler.internal.testing;

import dev.cpuprofiler.internal.cpu.CpuSourceKind;
import dev.cpuprofiler.internal.cpu.CpuUsageSource;
import java.io.IOException;

/** A CPU counter set by hand; can be told to fail. */
public final class FakeCpuSource implements CpuUsageSource {

    private volatile long cpuNanos;
    private volatile IOException failure;
    private volatile boolean closed;

    public void add(long nanos) {
        cpuNanos += nanos;
    }

    public void set(long nanos) {
        cpuNanos = nanos;
    }

    public void failWith(IOException e) {
        failure = e;
    }

    public boolean closed() {
        return closed;
    }

    @Override
    public long cpuTimeNanos() throws IOException {
        IOException f = failure;
        if (f != null) {
            throw f;
        }
        return cpuNanos;
    }

    @Override
    public CpuSourceKind kind() {
        return CpuSourceKind.CGROUP_V2;
    }

    @Override
    public String description() {
        return "fake cpu.stat";
    }

    @Override
    public void close() {
        closed = true;
    }
}
