package dev.cpuprofiler.session;

import dev.cpuprofiler.stack.Frame;
import dev.cpuprofiler.stack.StackSink;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Leaves out samples of threads that used no CPU during the profile. JFR's {@code jdk.NativeMethodSample}
 * samples threads that sit in native calls whether they run or wait (a socket read, {@code epoll_wait},
 * Tomcat's acceptor): in a CPU profile those are noise, and in a web app they can be half the samples.
 * The set of threads that burned CPU comes from per-thread CPU time, measured during the same profile;
 * until it is set (and for samples without a thread name) everything passes.
 */
final class IdleThreadFilter implements StackSink {

    private final StackSink delegate;
    private volatile Set<String> cpuThreads;
    private long dropped;

    IdleThreadFilter(StackSink delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** From now on, only samples of these threads (by name) pass. */
    void keepOnly(Set<String> threadNames) {
        this.cpuThreads = Set.copyOf(threadNames);
    }

    /** Sample weight left out so far. */
    synchronized long dropped() {
        return dropped;
    }

    @Override
    public void accept(List<Frame> framesRootFirst, String threadName, long weight) {
        Set<String> keep = cpuThreads;
        if (keep != null && threadName != null && !keep.contains(threadName)) {
            synchronized (this) {
                dropped += weight;
            }
            return;
        }
        delegate.accept(framesRootFirst, threadName, weight);
    }
}
