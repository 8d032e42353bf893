package dev.cpuprofiler.internal.engine;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Which engines can run in the test's JVM. jfr-execution always; jfr-cpu-time on JDK 25+ on Linux (there it must
 * work, so a refusal fails the test); async-profiler when its native library loads. Also keeps the SIGPROF order
 * right: JFR's CPU-time sampler has to install its handler before async-profiler ever starts in a JVM (see
 * CpuTimeSamplerProbe), and test classes run in no fixed order.
 */
public final class EnginesHere {

    public static final List<String> ALL = List.of(JfrCpuTimeEngine.ID, AsyncProfilerEngine.ID, JfrExecutionEngine.ID);

    private EnginesHere() {
    }

    public static boolean cpuTimeExpected() {
        return Runtime.version().feature() >= 25
                && System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
    }

    /**
     * The engine {@code auto} must pick in this JVM: jfr-cpu-time on JDK 25+ on Linux, else async-profiler where its
     * library loads, else jfr-execution. Tests assert it exactly: an engine passed over here is a finding, not luck.
     */
    public static String autoExpected() {
        if (cpuTimeExpected()) {
            return JfrCpuTimeEngine.ID;
        }
        return asyncProfilerLoadFailure() == null ? AsyncProfilerEngine.ID : JfrExecutionEngine.ID;
    }

    /** Skips the calling test, with a printed reason, if the engine cannot run in this JVM for a known cause. */
    public static void assumeRunnable(String id) {
        switch (id) {
            case JfrCpuTimeEngine.ID -> skipUnless(cpuTimeExpected(), id, "needs JDK 25+ on Linux; this is Java "
                    + Runtime.version() + " on " + System.getProperty("os.name"));
            case AsyncProfilerEngine.ID -> {
                String failure = asyncProfilerLoadFailure();
                skipUnless(failure == null, id, "its native library does not load here: " + failure);
            }
            default -> { }
        }
    }

    /**
     * {@link #assumeRunnable}, and skips the calling test, with a printed reason, for an engine this build has already
     * judged on another JDK ({@code -Dengines.judgedOnAnotherJdk}, a comma-separated list of ids: .ci/run's JDK 25 pass
     * names async-profiler). For tests whose answer about that engine the JDK does not change; the ones it does change
     * (stack walks, signals) call {@link #assumeRunnable} alone.
     */
    public static void assumeJudgedHere(String id) {
        assumeRunnable(id);
        List<String> judged = List.of(System.getProperty("engines.judgedOnAnotherJdk", "").split(","));
        skipUnless(!judged.contains(id), id, "judged in this build's pass on another JDK, and what this test checks "
                + "of it does not depend on the JDK");
    }

    public static ProfilingEngine create(String id) {
        return switch (id) {
            case JfrCpuTimeEngine.ID -> new JfrCpuTimeEngine();
            case AsyncProfilerEngine.ID -> new AsyncProfilerEngine();
            case JfrExecutionEngine.ID -> new JfrExecutionEngine();
            default -> throw new IllegalArgumentException(id);
        };
    }

    /** Call before async-profiler's first start in this JVM (in a {@code @BeforeAll}). */
    public static void letJfrInstallSigprofFirst() throws Exception {
        if (cpuTimeExpected()) {
            Path dir = Files.createTempDirectory("sigprof-order");
            System.out.println("[EnginesHere] JFR CPU-time probe before async-profiler: "
                    + new CpuTimeSamplerProbe().run(dir).orElse("samples arrived"));
            Files.deleteIfExists(dir);
        }
    }

    private static String asyncProfilerLoadFailure() {
        try {
            AsyncProfilerBridge.load(null);
            return null;
        } catch (Throwable e) {
            return e.toString();
        }
    }

    /** Skips the calling test unless {@code runnable}, printing the reason. */
    static void skipUnless(boolean runnable, String id, String reason) {
        if (!runnable) {
            System.out.println("[skip] " + id + ": " + reason);
        }
        assumeTrue(runnable, id + ": " + reason);
    }
}
