package dev.cpuprofiler.internal.cpu;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * The JVM process's own CPU time, from {@code com.sun.management.OperatingSystemMXBean.getProcessCpuTime()}.
 * Deliberately never {@code getProcessCpuLoad()}/{@code getCpuLoad()}: those share one measuring window with every
 * other caller (Micrometer included) and reset each other.
 */
public final class ProcessCpuSource implements CpuUsageSource {

    static final String MXBEAN_DESCRIPTION = "OperatingSystemMXBean.getProcessCpuTime()";

    private final LongSupplier processCpuTimeNanos;
    private final String description;

    /**
     * @param processCpuTimeNanos the process's cumulative CPU time in ns; a negative value means unsupported
     * @param description what it reads, for logs and the endpoint
     */
    public ProcessCpuSource(LongSupplier processCpuTimeNanos, String description) {
        this.processCpuTimeNanos = processCpuTimeNanos;
        this.description = description;
    }

    /** The platform MXBean's counter, or a supplier answering -1 (unsupported) where the JVM lacks it. */
    public static LongSupplier platformProcessCpuTime() {
        java.lang.management.OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
        if (bean instanceof com.sun.management.OperatingSystemMXBean os) {
            return os::getProcessCpuTime;
        }
        return () -> -1L;
    }

    @Override
    public long cpuTimeNanos() throws IOException {
        long nanos = processCpuTimeNanos.getAsLong();
        if (nanos < 0) {
            throw new IOException("process CPU time is not available from this JVM (" + description + " returned "
                    + nanos + ")");
        }
        return nanos;
    }

    @Override
    public CpuSourceKind kind() {
        return CpuSourceKind.PROCESS;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return "ProcessCpuSource[" + description + "]";
    }
}
