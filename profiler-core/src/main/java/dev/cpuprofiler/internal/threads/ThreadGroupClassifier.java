package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuBreakdown;

import java.util.List;

/**
 * Maps a thread's name to the {@link CpuBreakdown.Group} its CPU time belongs to.
 *
 * <p>Works on both forms of a name: the Java/HotSpot name (from {@code ThreadMXBean}) and the kernel's
 * {@code /proc/self/task/<tid>/comm}, which HotSpot sets from the same name but the kernel cuts to
 * {@value #COMM_LENGTH} bytes ("C2 CompilerThread0" reads "C2 CompilerThre"). A rule longer than that therefore
 * also matches its own first {@value #COMM_LENGTH} bytes when the name is exactly that long. No two rules of
 * different groups match the same name (a test checks it), so the order of the rules does not matter.
 *
 * <p>Names come from HotSpot's sources and were checked by listing {@code comm} of JDK 17 and JDK 25 processes under
 * each collector. Known limits:
 * <ul>
 * <li>Serial GC has no threads of its own: it collects on the VM Thread, so its time shows as jvm-other (as does the
 * safepoint part of every collector's pauses that the VM Thread runs).</li>
 * <li>async-profiler names no thread: its wall-clock timer thread (events wall, or cpu with wall) inherits the name
 * of the thread that started the profiler ({@code cpuprofiler-session} here, so profiler); its cpu/itimer/ctimer
 * samples are taken in signal handlers on the sampled threads and count as theirs.</li>
 * <li>An application thread named like a JVM thread ("Finalizer", "GC Thread#x", or cut to "Reference Handl") is
 * counted as the JVM's.</li>
 * </ul>
 */
final class ThreadGroupClassifier {

    /** TASK_COMM_LEN (16) less the terminating NUL: the most of a thread's name {@code comm} keeps. */
    public static final int COMM_LENGTH = 15;

    /** @param prefix true: any name starting with {@code name}; false: exactly {@code name} */
    record Rule(String name, boolean prefix, CpuBreakdown.Group group) {

        boolean matches(String threadName) {
            if (prefix ? threadName.startsWith(name) : threadName.equals(name)) {
                return true;
            }
            // The kernel's cut of a longer name: the rule's text must continue past the cut.
            return threadName.length() == COMM_LENGTH && name.length() > COMM_LENGTH && name.startsWith(threadName);
        }
    }

    static final List<Rule> RULES = List.of(
            // G1: "G1 Main Marker", "G1 Conc#n", "G1 Refine#n", "G1 Service", "G1 Young RemSet Sampling" (JDK < 17).
            prefix("G1 ", CpuBreakdown.Group.GC),
            // The shared worker pool of G1 and Parallel: "GC Thread#n".
            prefix("GC Thread#", CpuBreakdown.Group.GC),
            // ZGC, JDK 17: ZDriver, ZDirector, ZStat, ZWorker#n, ZUnmapper, ZUncommitter; generational (21+):
            // ZDriverMinor, ZDriverMajor, ZWorkerYoung#n, ZWorkerOld#n, ZUncommitter#n. Not a bare "Z" prefix:
            // application threads may start with Z.
            prefix("ZDriver", CpuBreakdown.Group.GC),
            exact("ZDirector", CpuBreakdown.Group.GC),
            exact("ZStat", CpuBreakdown.Group.GC),
            prefix("ZWorker", CpuBreakdown.Group.GC),
            prefix("ZUnmapper", CpuBreakdown.Group.GC),
            prefix("ZUncommitter", CpuBreakdown.Group.GC),
            // ZGC's pool for safepoint-time work (JDK 17+), only created by ZGC.
            prefix("RuntimeWorker#", CpuBreakdown.Group.GC),
            // Shenandoah: "Shenandoah GC Threads", "Shenandoah Control Thread", "Shenandoah Uncommit", ...
            prefix("Shenandoah", CpuBreakdown.Group.GC),
            // Shenandoah's safepoint workers (JDK 17).
            exact("Safepoint Cleanup Thread", CpuBreakdown.Group.GC),
            // String deduplication: "StrDedup" (JDK 17), "StringDedupThread" (JDK 18+).
            exact("StrDedup", CpuBreakdown.Group.GC),
            exact("StringDedupThread", CpuBreakdown.Group.GC),

            // "C1 CompilerThread0", "C2 CompilerThread1", ...
            prefix("C1 CompilerThread", CpuBreakdown.Group.JIT),
            prefix("C2 CompilerThread", CpuBreakdown.Group.JIT),
            // Graal as JIT: "JVMCI CompilerThread0", "JVMCI-native CompilerThread0".
            prefix("JVMCI", CpuBreakdown.Group.JIT),
            // Up to JDK 19: cleans the code cache, which only the JIT fills.
            exact("Sweeper thread", CpuBreakdown.Group.JIT),

            // Ours: every thread the profiler starts is named "cpuprofiler-...".
            prefix("cpuprofiler-", CpuBreakdown.Group.PROFILER),
            // JFR: "JFR Recorder Thread", "JFR Periodic Tasks", "JFR Thread Sampler" (JDK 17),
            // "JFR Sampler Thread" and "JFR CPU Sampler Thread" (JDK 25), "JFR Recording Scheduler", ...
            prefix("JFR ", CpuBreakdown.Group.PROFILER),

            exact("VM Thread", CpuBreakdown.Group.JVM_OTHER),
            exact("VM Periodic Task Thread", CpuBreakdown.Group.JVM_OTHER),
            exact("Service Thread", CpuBreakdown.Group.JVM_OTHER),
            exact("Monitor Deflation Thread", CpuBreakdown.Group.JVM_OTHER),
            exact("Signal Dispatcher", CpuBreakdown.Group.JVM_OTHER),
            exact("Reference Handler", CpuBreakdown.Group.JVM_OTHER),
            exact("Finalizer", CpuBreakdown.Group.JVM_OTHER),
            exact("Common-Cleaner", CpuBreakdown.Group.JVM_OTHER),
            exact("Notification Thread", CpuBreakdown.Group.JVM_OTHER),
            exact("Attach Listener", CpuBreakdown.Group.JVM_OTHER),
            // -Xlog:async's writer.
            exact("AsyncLog Thread", CpuBreakdown.Group.JVM_OTHER),
            // The debugger agent: "JDWP Transport Listener: dt_socket", "JDWP Event Helper Thread", ...
            prefix("JDWP ", CpuBreakdown.Group.JVM_OTHER));

    private ThreadGroupClassifier() {
    }

    /** The group of a thread by its Java name or its (possibly cut) {@code comm}; unknown names are application. */
    public static CpuBreakdown.Group classify(String threadName) {
        if (threadName == null || threadName.isEmpty()) {
            return CpuBreakdown.Group.APPLICATION;
        }
        for (Rule rule : RULES) {
            if (rule.matches(threadName)) {
                return rule.group();
            }
        }
        return CpuBreakdown.Group.APPLICATION;
    }

    private static Rule prefix(String name, CpuBreakdown.Group group) {
        return new Rule(name, true, group);
    }

    private static Rule exact(String name, CpuBreakdown.Group group) {
        return new Rule(name, false, group);
    }
}
