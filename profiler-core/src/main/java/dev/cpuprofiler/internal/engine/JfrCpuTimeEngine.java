package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.internal.stack.StackSink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * JFR {@code jdk.CPUTimeSample} (JDK 25+, Linux): every thread, Java or native, is sampled per period of its own CPU
 * time, so a profile shows where CPU went, not where threads waited. Each sample weighs its {@code samplingPeriod}
 * over the nominal period; failed samples and {@code jdk.CPUTimeSamplesLost} count as lost.
 */
public final class JfrCpuTimeEngine implements ProfilingEngine {

    public static final String ID = "jfr-cpu-time";

    // Whether the sampler works is settled for the JVM's lifetime by the first probe (see CpuTimeSamplerProbe).
    private final CpuTimeSamplerCheck sampler;
    private final JfrSetup stackDepth;
    private final DebugNonSafepointsCheck debugNonSafepoints;
    private final JfrPeriodicTaskKeeper jfrKeeper;

    /** JFR's stack depth raised to each session's max-stack-depth when it still can be. */
    public JfrCpuTimeEngine() {
        this(new JfrSetup(), new DebugNonSafepointsCheck());
    }

    /**
     * @param stackDepth shared by everything in this profiler that records through JFR
     * @param debugNonSafepoints whether inlined methods can be attributed exactly (a note in each profile if not)
     */
    public JfrCpuTimeEngine(JfrSetup stackDepth, DebugNonSafepointsCheck debugNonSafepoints) {
        this(stackDepth, debugNonSafepoints, JfrPeriodicTaskKeeper.none());
    }

    /** @param jfrKeeper told before each recording starts (see {@link JfrPeriodicTaskKeeper}) */
    public JfrCpuTimeEngine(JfrSetup stackDepth, DebugNonSafepointsCheck debugNonSafepoints,
            JfrPeriodicTaskKeeper jfrKeeper) {
        this(new CpuTimeSamplerProbe(), System.getProperty("os.name", "unknown"), stackDepth, debugNonSafepoints,
                jfrKeeper);
    }

    JfrCpuTimeEngine(CpuTimeSamplerProbe probe, String osName) {
        this(probe, osName, new JfrSetup(), new DebugNonSafepointsCheck(), JfrPeriodicTaskKeeper.none());
    }

    JfrCpuTimeEngine(CpuTimeSamplerProbe probe, String osName, JfrSetup stackDepth,
            DebugNonSafepointsCheck debugNonSafepoints, JfrPeriodicTaskKeeper jfrKeeper) {
        this.sampler = new CpuTimeSamplerCheck(probe, osName);
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
        Optional<String> unsupported = sampler.unsupportedPlatform();
        if (unsupported.isPresent()) {
            throw new EngineUnavailableException(ID, unsupported.get());
        }
        // Before anything below initialises JFR or writes through it (the event-type lookup, the probe).
        Optional<String> full = settings.diskSpace().jfrRefusal(settings.workDirectory());
        if (full.isPresent()) {
            throw new EngineUnavailableException(ID, full.get());
        }
        // On JDK 17-24 the bundled settings already say no: no JFR command runs, JFR stays as it was.
        Optional<String> unlisted = sampler.missingFromBundledSettings();
        if (unlisted.isPresent()) {
            throw new EngineUnavailableException(ID, unlisted.get());
        }
        List<String> notes = new ArrayList<>();
        // Before the event-type lookup initialises JFR: its depth can change only until then.
        stackDepth.ensure(settings.maxStackDepth()).note().ifPresent(notes::add);
        Optional<String> missing = sampler.missingEvent();
        if (missing.isPresent()) {
            throw new EngineUnavailableException(ID, missing.get());
        }
        ensureSamplerWorks(settings);
        JfrDumpRecording.Plan plan = new JfrDumpRecording.Plan(ID, JfrSampleReader.CPU_TIME_SAMPLE,
                JfrSystemInfo.withSystemInfo(Map.of(JfrSampleReader.CPU_TIME_SAMPLE,
                        Map.of("enabled", "true", "throttle", JfrTimespan.of(settings.samplingPeriod()),
                                "stackTrace", "true"),
                        JfrSampleReader.CPU_TIME_SAMPLES_LOST, Map.of("enabled", "true")), settings),
                Set.of(JfrSampleReader.CPU_TIME_SAMPLE), List.of());
        debugNonSafepoints.note().ifPresent(notes::add);
        return JfrDumpRecording.start(plan, settings, sink, notes, jfrKeeper);
    }

    private void ensureSamplerWorks(EngineSettings settings) throws EngineUnavailableException {
        Optional<String> problem;
        try {
            problem = sampler.samplerProblem(settings.workDirectory());
        } catch (IOException | RuntimeException e) {
            // Not settled: a full disk now says nothing about the sampler; probe again next time.
            throw new EngineUnavailableException(ID, "could not probe JFR's CPU-time sampler ("
                    + EngineUnavailableException.unexpected(e) + ")", e);
        }
        if (problem.isPresent()) {
            throw new EngineUnavailableException(ID, problem.get());
        }
    }
}
