package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.internal.stack.StackSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * JFR {@code jdk.ExecutionSample} at the sampling period: works on every JDK 17+. It samples threads running Java code
 * by wall-clock period, at most 5 per period, so with many busy threads the effective period stretches: the portable
 * fallback, not the first choice.
 *
 * <p>It leaves out {@code jdk.NativeMethodSample} on purpose: that event samples threads that are in native code
 * whether they run or wait, and cannot tell the two apart (a thread blocked in {@code accept} or {@code epoll_wait}
 * looks exactly like one compressing data), so in a web application half of a "CPU" profile was idle waits. Native
 * CPU work of Java threads (JNI) is thus missing from this engine's profiles; async-profiler and jfr-cpu-time see it.
 */
public final class JfrExecutionEngine implements ProfilingEngine {

    public static final String ID = "jfr-execution";

    static final String DETAIL = JfrSampleReader.EXECUTION_SAMPLE;
    static final String SAMPLER_NOTE = "jfr-execution samples threads running Java code by wall-clock period (at most "
            + "5 per period); CPU spent in native code (JNI, the JVM, the kernel) is not sampled";

    private final JfrSetup stackDepth;
    private final DebugNonSafepointsCheck debugNonSafepoints;
    private final JfrPeriodicTaskKeeper jfrKeeper;

    /** JFR's stack depth raised to each session's max-stack-depth when it still can be. */
    public JfrExecutionEngine() {
        this(new JfrSetup(), new DebugNonSafepointsCheck());
    }

    /**
     * @param stackDepth shared by everything in this profiler that records through JFR
     * @param debugNonSafepoints whether inlined methods can be attributed exactly (a note in each profile if not)
     */
    public JfrExecutionEngine(JfrSetup stackDepth, DebugNonSafepointsCheck debugNonSafepoints) {
        this(stackDepth, debugNonSafepoints, JfrPeriodicTaskKeeper.none());
    }

    /** @param jfrKeeper told before each recording starts (see {@link JfrPeriodicTaskKeeper}) */
    public JfrExecutionEngine(JfrSetup stackDepth, DebugNonSafepointsCheck debugNonSafepoints,
            JfrPeriodicTaskKeeper jfrKeeper) {
        this.stackDepth = stackDepth;
        this.debugNonSafepoints = debugNonSafepoints;
        this.jfrKeeper = Objects.requireNonNull(jfrKeeper, "jfrKeeper");
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public EngineRecording start(EngineSettings settings, StackSink sink) throws EngineUnavailableException {
        String noJfr = JfrAvailability.whyUnavailable();
        if (noJfr != null) {
            throw new EngineUnavailableException(ID, noJfr);
        }
        List<String> notes = new ArrayList<>();
        stackDepth.ensure(settings.maxStackDepth()).note().ifPresent(notes::add);
        String period = JfrTimespan.of(settings.samplingPeriod());
        JfrDumpRecording.Plan plan = new JfrDumpRecording.Plan(ID, DETAIL,
                JfrSystemInfo.withSystemInfo(Map.of(JfrSampleReader.EXECUTION_SAMPLE,
                        Map.of("enabled", "true", "period", period)), settings),
                Set.of(JfrSampleReader.EXECUTION_SAMPLE), List.of(SAMPLER_NOTE));
        debugNonSafepoints.note().ifPresent(notes::add);
        return JfrDumpRecording.start(plan, settings, sink, notes, jfrKeeper);
    }
}
