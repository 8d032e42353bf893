package dev.cpuprofiler.internal.threads;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Threads that burn real CPU (arithmetic, checked against the thread's own CPU clock, so a burst is a CPU amount
 * whatever the machine's load) or do nothing, for tests and the micro-measure. Close to stop them all.
 */
final class Workloads implements AutoCloseable {

    private static final ThreadMXBean BEAN = ManagementFactory.getThreadMXBean();

    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;
    private volatile long sink;

    /** When the bursts ran (wall) and the CPU they used: the truth the estimates are checked against. */
    private final List<long[]> bursts = new ArrayList<>(); // {startNanos, endNanos, cpuNanos}, guarded by itself

    /** Burns {@code cpuNanos} of this thread's CPU time on arithmetic, and logs the burst. */
    long burn(long cpuNanos) {
        long start = System.nanoTime();
        long cpu0 = BEAN.getCurrentThreadCpuTime();
        long end = cpu0 + cpuNanos;
        long x = sink | 1;
        long cpu;
        do {
            for (int i = 0; i < 20_000; i++) { // ~20-50 µs of work between clock reads
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
        } while ((cpu = BEAN.getCurrentThreadCpuTime()) < end && running);
        long[] burst = {start, System.nanoTime(), cpu - cpu0};
        synchronized (bursts) {
            bursts.add(burst);
        }
        sink = x;
        return x;
    }

    /**
     * The bursts that ran within [from, to] (clipped): how long at least one was under way (their union), and how
     * much CPU they used over how much wall time (1.0 when nothing else took their CPU away mid-burst).
     */
    BurstTruth bursts(long from, long to) {
        List<long[]> in = new ArrayList<>();
        synchronized (bursts) {
            for (long[] b : bursts) {
                if (b[1] > from && b[0] < to) {
                    in.add(b);
                }
            }
        }
        in.sort((a, b) -> Long.compare(a[0], b[0]));
        long union = 0;
        long coveredTo = from;
        double cpu = 0;
        double wall = 0;
        for (long[] b : in) {
            long s = Math.max(from, b[0]);
            long e = Math.min(to, b[1]);
            double length = b[1] - b[0];
            wall += e - s;
            cpu += length > 0 ? b[2] * ((e - s) / length) : 0;
            if (e > coveredTo) {
                union += e - Math.max(s, coveredTo);
                coveredTo = e;
            }
        }
        return new BurstTruth(union / 1e9, wall > 0 ? cpu / wall : 1.0);
    }

    /**
     * @param unionSeconds time with at least one burst under way
     * @param cpuPerWall CPU used in bursts over their wall time
     */
    record BurstTruth(double unionSeconds, double cpuPerWall) {
    }

    /** A thread that never stops computing. */
    Thread busy(String name) {
        return start(name, () -> {
            while (running) {
                burn(1_000_000);
            }
        });
    }

    /** A thread parked until closed. */
    Thread parked(String name) {
        return start(name, () -> {
            while (running) {
                LockSupport.park(this);
            }
        });
    }

    /** A thread that sleeps {@code sleepMillis} at a time and does a little work in between. */
    Thread sleeper(String name, long sleepMillis) {
        return start(name, () -> {
            while (running) {
                burn(100_000);
                try {
                    Thread.sleep(sleepMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /**
     * Two threads taking turns through a lock: each holds it for {@code turnCpuNanos} of computing, then hands it to
     * the other and waits. They never run together, and between them one is always running.
     */
    List<Thread> takingTurns(String name, long turnCpuNanos) {
        ReentrantLock lock = new ReentrantLock();
        Condition changed = lock.newCondition();
        int[] turn = {0};
        List<Thread> pair = new ArrayList<>();
        for (int me = 0; me < 2; me++) {
            int self = me;
            pair.add(start(name + "-" + me, () -> {
                while (running) {
                    lock.lock();
                    try {
                        while (turn[0] != self && running) {
                            changed.awaitUninterruptibly();
                        }
                        burn(turnCpuNanos);
                        turn[0] = 1 - self;
                        changed.signalAll();
                    } finally {
                        lock.unlock();
                    }
                }
            }));
        }
        return pair;
    }

    /**
     * Threads that start a burst of {@code burstCpuNanos} together at the start of every period of
     * {@code periodNanos} (wall time, shared schedule), and sleep for the rest of it.
     */
    List<Thread> together(String name, int count, long burstCpuNanos, long periodNanos) {
        long origin = System.nanoTime() + periodNanos;
        List<Thread> group = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            group.add(start(name + "-" + i, () -> {
                long next = origin;
                while (running) {
                    long wait;
                    while ((wait = next - System.nanoTime()) > 0 && running) {
                        LockSupport.parkNanos(wait);
                    }
                    burn(burstCpuNanos);
                    next += periodNanos;
                    while (next < System.nanoTime()) {
                        next += periodNanos; // overran (a loaded machine): keep to the shared schedule
                    }
                }
            }));
        }
        return group;
    }

    private Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        threads.add(t);
        return t;
    }

    /** CPU time of a thread so far, in ns. */
    static long cpu(Thread t) {
        return BEAN.getThreadCpuTime(t.getId());
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            LockSupport.unpark(t);
            t.interrupt();
        }
        for (Thread t : threads) {
            t.join(5_000);
        }
    }
}
