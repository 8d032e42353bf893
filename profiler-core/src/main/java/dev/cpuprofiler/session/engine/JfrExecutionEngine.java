package dev.cpuprofiler.session.engine;

import dev.cpuprofiler.stack.StackSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * JFR {@code jdk.ExecutionSample} and {@code jdk.NativeMethodSample} at the sampling period: works on every JDK 17+.
 * It samples running threads by wall-clock period, at most 5 threads in Java and 1 in native code per period, so with
 * many busy threads the effective period stretches: the portable fallback, not the first choice.
 */
public final class JfrExecutionEngine implements ProfilingEngine {

    public static final String ID = "jfr-execution";

    static final String DETAIL = JfrSampleReader.EXECUTION_SAMPLE + "+" + JfrSampleReader.NATIVE_METHOD_SAMPLE;
    static final String SAMPLER_NOTE = "jfr-execution samples running threads by wall-clock period (at most 5 in "
            + "Java and 1 in native code per period); native-method samples include threads waiting in native calls";

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
        String period = JfrTimespan.of(settings.samplingPeriod());
        JfrRecordingPlan plan = new JfrRecordingPlan(ID, DETAIL,
                Map.of(JfrSampleReader.EXECUTION_SAMPLE, Map.of("enabled", "true", "period", period),
                        JfrSampleReader.NATIVE_METHOD_SAMPLE, Map.of("enabled", "true", "period", period)),
                Set.of(JfrSampleReader.EXECUTION_SAMPLE, JfrSampleReader.NATIVE_METHOD_SAMPLE),
                List.of(SAMPLER_NOTE));
        List<String> notes = new ArrayList<>();
        new DebugNonSafepointsCheck().note().ifPresent(notes::add);
        return JfrDumpRecording.start(plan, settings, sink, notes);
    }
}
