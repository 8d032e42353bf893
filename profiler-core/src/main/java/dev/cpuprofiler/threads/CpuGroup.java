package dev.cpuprofiler.threads;

/**
 * Where a process's CPU time went, by the kind of thread that used it. {@link #id()} is the name used in JSON and
 * in {@link CpuBreakdown}.
 */
public enum CpuGroup {
    /** Everything not recognised as the JVM's or a profiler's: the service's own threads, its libraries', main. */
    APPLICATION("application"),
    /** The garbage collector's worker and concurrent threads (G1, Parallel, ZGC, Shenandoah). */
    GC("gc"),
    /** The JIT compilers' threads (C1, C2, JVMCI/Graal) and, up to JDK 19, the code cache sweeper. */
    JIT("jit"),
    /** This profiler's threads, JFR's and async-profiler's timer thread. */
    PROFILER("profiler"),
    /** The JVM's other housekeeping threads: VM Thread, Service Thread, Reference Handler, Finalizer, ... */
    JVM_OTHER("jvm-other"),
    /** CPU time the process used that no listed thread accounts for: threads that ended during the session. */
    UNATTRIBUTED("unattributed");

    private final String id;

    CpuGroup(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
