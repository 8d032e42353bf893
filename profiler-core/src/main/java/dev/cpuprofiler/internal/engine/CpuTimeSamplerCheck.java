package dev.cpuprofiler.internal.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether JFR's CPU-time sampler ({@code jdk.CPUTimeSample}) records in this JVM: one answer for the jfr-cpu-time
 * engine and the look-back, so that both decide alike. It is asked in three steps of growing cost:
 * {@link #unsupportedPlatform()} and {@link #missingFromBundledSettings()} initialise no JFR and record nothing (a
 * profiler that is only being built must not initialise JFR, see {@link JfrAvailability}); {@link #missingEvent()}
 * initialises JFR; {@link #samplerProblem(Path)} records for 30 ms, once: another SIGPROF handler installed before
 * JFR's makes the sampler record nothing for the JVM's life (see {@link CpuTimeSamplerProbe}). Each answer is settled
 * once per instance.
 */
public final class CpuTimeSamplerCheck {

    public static final String EVENT = JfrSampleReader.CPU_TIME_SAMPLE;

    private static final Logger log = LoggerFactory.getLogger(CpuTimeSamplerCheck.class);

    private final CpuTimeSamplerProbe probe;
    private final String osName;
    // Guarded by this.
    private Boolean eventListed;
    private Boolean eventExists;
    private Boolean samplerWorks;
    private String samplerProblem;

    /** This JVM's OS and the platform's thread CPU clock. */
    public CpuTimeSamplerCheck() {
        this(new CpuTimeSamplerProbe(), System.getProperty("os.name", "unknown"));
    }

    CpuTimeSamplerCheck(CpuTimeSamplerProbe probe, String osName) {
        this.probe = probe;
        this.osName = osName;
    }

    /** Why the sampler cannot exist here whatever the JDK (not Linux, no JFR), or empty. Initialises no JFR. */
    public Optional<String> unsupportedPlatform() {
        if (!osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return Optional.of(EVENT + " exists only on Linux (this is " + osName + ")");
        }
        return Optional.ofNullable(JfrAvailability.whyUnavailable());
    }

    /**
     * Why not, judged from the JDK's bundled settings, which list every built-in event (JDK 17-24 do not list it), or
     * empty. Initialises no JFR: on JDK 17-24, where another engine records, JFR then stays untouched.
     */
    public synchronized Optional<String> missingFromBundledSettings() {
        if (eventListed == null) {
            eventListed = JfrAvailability.listedInDefaultSettings(EVENT);
        }
        return eventListed ? Optional.empty() : Optional.of(noEvent());
    }

    /**
     * As {@link #missingFromBundledSettings()}, then the event type itself, which initialises JFR. The event type
     * decides, not the version number: a JDK may have it backported, or lack it.
     */
    public synchronized Optional<String> missingEvent() {
        if (missingFromBundledSettings().isPresent()) {
            return Optional.of(noEvent());
        }
        if (eventExists == null) {
            eventExists = JfrAvailability.hasEventType(EVENT);
        }
        return eventExists ? Optional.empty() : Optional.of(noEvent());
    }

    /**
     * Why the sampler records nothing (another SIGPROF handler came first), or empty when the probe's samples arrived.
     * The first answer holds for the JVM's life; a probe that could not run settles nothing.
     *
     * @param workDirectory where the probe's short-lived file goes
     * @throws IOException when the probe could not write its file
     */
    public synchronized Optional<String> samplerProblem(Path workDirectory) throws IOException {
        if (samplerWorks == null) {
            Optional<String> problem = probe.run(workDirectory);
            samplerWorks = problem.isEmpty();
            samplerProblem = problem.orElse(null);
            log.debug("JFR CPU-time sampler probe: {}", problem.orElse("samples arrived"));
        }
        return Optional.ofNullable(samplerProblem);
    }

    private String noEvent() {
        return "this JVM (Java " + JfrAvailability.javaVersion() + ") has no JFR event " + EVENT
                + "; it needs JDK 25 or later";
    }
}
