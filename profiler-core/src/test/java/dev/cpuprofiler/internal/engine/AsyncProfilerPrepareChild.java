package dev.cpuprofiler.internal.engine;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * Run in a JVM of its own with diagnostic options unlocked but DebugNonSafepoints off: prints the JVM's flag and
 * what the profiler's check believes, before and after preparing async-profiler.
 */
public final class AsyncProfilerPrepareChild {

    public static void main(String[] args) {
        DebugNonSafepointsCheck check = new DebugNonSafepointsCheck();
        System.out.println("FLAG before " + realFlag() + " " + check.warning().isEmpty());
        new AsyncProfilerEngine(null, check).prepare();
        boolean quiet = AsyncProfilerEngine.nativeAccessIsQuiet();
        System.out.println("FLAG after " + realFlag() + " " + check.warning().isEmpty() + " quiet=" + quiet);
    }

    private static boolean realFlag() {
        return Boolean.parseBoolean(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("DebugNonSafepoints").getValue());
    }
}
