package dev.cpuprofiler.internal.threads;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads thread CPU time through the platform {@link ThreadMXBean}. On HotSpot the bean is a
 * {@code com.sun.management.ThreadMXBean}, whose bulk {@code getThreadCpuTime(long[])} reads many threads in one
 * call (one native transition, one thread-list snapshot) instead of one call per thread. On Linux each read is a
 * {@code clock_gettime} on the thread's CPU clock: nanosecond resolution, no safepoint.
 *
 * <p>Names come from {@code getThreadInfo(ids, 0)}: with depth 0 HotSpot takes no stack and does not stop the
 * world (unlike {@code dumpAllThreads} or {@code Thread.getAllStackTraces()}, which are never used here).
 */
public final class ManagementThreadCpuReader implements ThreadCpuReader {

    private static final Logger log = LoggerFactory.getLogger(ManagementThreadCpuReader.class);
    private static final long[] NONE = new long[0];

    private final ThreadMXBean bean;
    private final com.sun.management.ThreadMXBean bulk; // null where the JVM does not offer the bulk read
    private final boolean available;

    public ManagementThreadCpuReader() {
        this(ManagementFactory.getThreadMXBean());
    }

    public ManagementThreadCpuReader(ThreadMXBean bean) {
        this.bean = Objects.requireNonNull(bean, "bean");
        this.bulk = bean instanceof com.sun.management.ThreadMXBean b ? b : null;
        this.available = enable(bean);
    }

    private static boolean enable(ThreadMXBean bean) {
        try {
            if (!bean.isThreadCpuTimeSupported()) {
                log.info("This JVM cannot measure per-thread CPU time: no thread CPU breakdown");
                return false;
            }
            if (!bean.isThreadCpuTimeEnabled()) {
                // Off only if someone turned it off; it is on by default and costs nothing until read.
                bean.setThreadCpuTimeEnabled(true);
                log.info("Turned per-thread CPU time measurement on (it was off)");
            }
            return true;
        } catch (UnsupportedOperationException | SecurityException e) {
            log.info("Per-thread CPU time unavailable: {}", e.toString());
            return false;
        }
    }

    @Override
    public boolean available() {
        return available;
    }

    @Override
    public long[] threadIds() {
        return available ? bean.getAllThreadIds() : NONE;
    }

    @Override
    public long startedThreadCount() {
        return available ? bean.getTotalStartedThreadCount() : -1;
    }

    @Override
    public long liveThreadCount() {
        return available ? bean.getThreadCount() : -1;
    }

    @Override
    public long[] cpuTimes(long[] ids) {
        if (!available || ids.length == 0) {
            return new long[ids.length];
        }
        if (bulk != null) {
            return bulk.getThreadCpuTime(ids);
        }
        long[] times = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            times[i] = bean.getThreadCpuTime(ids[i]);
        }
        return times;
    }

    @Override
    public String[] names(long[] ids) {
        String[] names = new String[ids.length];
        if (ids.length == 0) {
            return names;
        }
        ThreadInfo[] infos = bean.getThreadInfo(ids, 0);
        for (int i = 0; i < ids.length; i++) {
            names[i] = infos[i] == null ? null : infos[i].getThreadName();
        }
        return names;
    }
}
