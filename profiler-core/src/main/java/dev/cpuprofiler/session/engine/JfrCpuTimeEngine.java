package dev.cpuprofiler.session.engine;

import dev.cpuprofiler.stack.StackSink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JFR {@code jdk.CPUTimeSample} (JDK 25+, Linux): every thread, Java or native, is sampled per period of its own CPU
 * time, so a profile shows where CPU went, not where threads waited. Each sample weighs its {@code samplingPeriod}
 * over the nominal period; failed samples and {@code jdk.CPUTimeSamplesLost} count as lost.
 */
public final class JfrCpuTimeEngine implements ProfilingEngine {

    public static final String ID = "jfr-cpu-time";

    private static final Logger log = LoggerFactory.getLogger(JfrCpuTimeEngine.class);

    private final CpuTimeSamplerProbe probe;
    private final String osName;
    private final JfrStackDepth stackDepth;
    private final DebugNonSafepointsCheck debugNonSafepoints;
    // Whether the sampler works is settled for the JVM's lifetime by the first probe (see CpuTimeSamplerProbe).
    private Boolean samplerWorks;
    private Boolean eventExists;
    private String samplerProblem;

    /** JFR's stack depth raised to each session's max-stack-depth when it still can be. */
    public JfrCpuTimeEngine() {
        this(new JfrStackDepth(), new DebugNonSafepointsCheck());
    }

    /**
     * @param stackDepth shared by everything in this profiler that records through JFR
     * @param debugNonSafepoints whether inlined methods can be attributed exactly (a note in each profile if not)
     */
    public JfrCpuTimeEngine(JfrStackDepth stackDepth, DebugNonSafepointsCheck debugNonSafepoints) {
        this(new CpuTimeSamplerProbe(), System.getProperty("os.name", "unknown"), stackDepth, debugNonSafepoints);
    }

    JfrCpuTimeEngine(CpuTimeSamplerProbe probe, String osName) {
        this(probe, osName, new JfrStackDepth(), new DebugNonSafepointsCheck());
    }

    JfrCpuTimeEngine(CpuTimeSamplerProbe probe, String osName, JfrStackDepth stackDepth,
            DebugNonSafepointsCheck debugNonSafepoints) {
        this.probe = probe;
        this.osName = osName;
        this.stackDepth = stackDepth;
        this.debugNonSafepoints = debugNonSafepoints;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public EngineRecording start(EngineSettings settings, StackSink sink) throws EngineUnavailableException {
        if (!osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
            throw new EngineUnavailableException(ID, "jdk.CPUTimeSample exists only on Linux (this is " + osName + ")");
        }
        String noJfr = JfrAvailability.whyUnavailable();
        if (noJfr != null) {
            throw new EngineUnavailableException(ID, noJfr);
        }
        // Before anything below initialises JFR or writes through it (the event-type lookup, the probe).
        Optional<String> full = settings.diskSpace().jfrRefusal(settings.workDirectory());
        if (full.isPresent()) {
            throw new EngineUnavailableException(ID, full.get());
        }
        List<String> notes = new ArrayList<>();
        stackDepth.ensure(settings.maxStackDepth()).note().ifPresent(notes::add);
        // The event type decides, not the version number: a JDK may have it backported, or lack it. The bundled
        // settings are read first because they do not initialise JFR (see JfrAvailability): on JDK 17-24, where
        // another engine records, JFR then stays untouched.
        if (!hasEvent()) {
            throw new EngineUnavailableException(ID, "this JVM (Java " + JfrAvailability.javaVersion()
                    + ") has no JFR event jdk.CPUTimeSample; it needs JDK 25 or later");
        }
        ensureSamplerWorks(settings);
        JfrRecordingPlan plan = new JfrRecordingPlan(ID, JfrSampleReader.CPU_TIME_SAMPLE,
                Map.of(JfrSampleReader.CPU_TIME_SAMPLE,
                        Map.of("enabled", "true", "throttle", JfrTimespan.of(settings.samplingPeriod()),
                                "stackTrace", "true"),
                        JfrSampleReader.CPU_TIME_SAMPLES_LOST, Map.of("enabled", "true")),
                Set.of(JfrSampleReader.CPU_TIME_SAMPLE), List.of());
        debugNonSafepoints.note().ifPresent(notes::add);
        return JfrDumpRecording.start(plan, settings, sink, notes);
    }

    /** Whether the event exists: settled once per JVM, so JDK 17-24 do not re-read the settings every session. */
    private synchronized boolean hasEvent() {
        if (eventExists == null) {
            eventExists = JfrAvailability.listedInDefaultSettings(JfrSampleReader.CPU_TIME_SAMPLE)
                    && JfrAvailability.hasEventType(JfrSampleReader.CPU_TIME_SAMPLE);
        }
        return eventExists;
    }

    private synchronized void ensureSamplerWorks(EngineSettings settings) throws EngineUnavailableException {
        if (samplerWorks == null) {
            try {
                Optional<String> problem = probe.run(settings.workDirectory());
                samplerWorks = problem.isEmpty();
                samplerProblem = problem.orElse(null);
                if (samplerWorks) {
                    log.debug("JFR CPU-time sampler probe delivered samples");
                }
            } catch (IOException | RuntimeException e) {
                // Not settled: a full disk now says nothing about the sampler; probe again next time.
                throw new EngineUnavailableException(ID, "could not probe JFR's CPU-time sampler: " + e, e);
            }
        }
        if (!samplerWorks) {
            throw new EngineUnavailableException(ID, samplerProblem);
        }
    }
}
