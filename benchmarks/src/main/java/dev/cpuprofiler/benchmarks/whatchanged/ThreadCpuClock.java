package dev.cpuprofiler.benchmarks.whatchanged;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;

/**
 * The CPU time of the thread that runs the caller, in nanoseconds: a platform thread's own clock; on a virtual thread,
 * which has no CPU clock ({@code getCurrentThreadCpuTime()} is -1 there, JDK 21 to 25), its carrier's, which counts
 * the virtual thread's CPU while it stays mounted: a CPU loop does (no blocking call, and the JDK's scheduler does not
 * time-slice), so differences taken around one are the virtual thread's own. The carrier is {@code
 * Thread.currentCarrierThread()}, which is not public: the JVM needs {@value #OPENS}.
 */
final class ThreadCpuClock {

    /** The JVM option that lets a virtual thread find its carrier. */
    static final String OPENS = "--add-opens=java.base/java.lang=ALL-UNNAMED";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ThreadCpuClock() {
    }

    /** CPU nanoseconds of the thread running the caller (only differences mean anything). */
    @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+; getId() is the same number
    static long now() {
        long own = THREADS.getCurrentThreadCpuTime();
        if (own >= 0) {
            return own;
        }
        long carrier = THREADS.getThreadCpuTime(Carrier.current().getId());
        if (carrier < 0) {
            throw new IllegalStateException("no CPU clock for the carrier of " + Thread.currentThread()
                    + ": thread CPU time is not supported or disabled in this JVM");
        }
        return carrier;
    }

    /** Where a virtual thread's carrier is found; looked up at the first virtual thread. */
    private static final class Carrier {
        private static final Method CURRENT = currentCarrierThread();

        static Thread current() {
            try {
                return (Thread) CURRENT.invoke(null);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Thread.currentCarrierThread() failed", e);
            }
        }

        private static Method currentCarrierThread() {
            try {
                Method m = Thread.class.getDeclaredMethod("currentCarrierThread");
                m.setAccessible(true);
                return m;
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new IllegalStateException("a virtual thread has no CPU clock, and its carrier's is out of reach: "
                        + "start the JVM with " + OPENS, e);
            }
        }
    }
}
