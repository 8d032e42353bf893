package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.engine.CpuTimeSamplerCheck;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.JfrPeriodicTaskKeeper;
import dev.cpuprofiler.internal.engine.EngineUnavailableException;
import dev.cpuprofiler.internal.engine.WorkDirectory;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Look-back samples from JFR's {@code jdk.CPUTimeSample} (JDK 25+, Linux, experimental), streamed: each thread, Java or
 * native, is sampled per period of its own CPU time, so a busy thread is sampled in proportion to its CPU and idle
 * threads cost nothing, where {@code jdk.ExecutionSample} takes at most five running threads per wall-clock period.
 * The look-back then shows what the jfr-cpu-time sessions it precedes show. Each sample weighs the period it says it
 * was taken at ({@code samplingPeriod}), in the sessions' unit like theirs, so the shares of both parts compare.
 *
 * <p>The sampler is a per-thread CPU timer that signals with SIGPROF: it must never run where a session may record
 * with async-profiler (whichever installs its handler second records nothing), so {@link LookbackSourceChoice} picks
 * it only where the sessions record with jfr-cpu-time. Before its first stream it runs the engines' short probe
 * ({@link CpuTimeSamplerCheck}), once: where another SIGPROF handler came first the sampler records nothing, and the
 * look-back says so instead of keeping an empty ring.
 */
final class JfrCpuTimeSampleSource implements LookbackSource {

    static final String EVENT = JfrSampleEvent.CPU_TIME.name;

    private static final Logger log = LoggerFactory.getLogger(JfrCpuTimeSampleSource.class);

    private final int maxStackDepth;
    private final ThreadFactory threadFactory;
    private final DiskSpaceGuard diskSpace;
    private final JfrPeriodicTaskKeeper jfrKeeper;
    private final CpuTimeSamplerCheck sampler;
    // Samples instead where the sampler proves silent (null: the look-back is then unavailable, saying why).
    private final LookbackSource whenSilent;
    private volatile String silence;

    /**
     * @param maxStackDepth frames kept per sample (JFR itself keeps 64 unless {@code stackdepth} says more)
     * @param threadFactory makes the thread each stream runs on, and a short-lived one per hand-over that bounds the
     *        wait for JFR's flush (made daemons here)
     * @param diskSpace the free space kept under JFR's repository (see {@link JfrExecutionSampleSource})
     */
    public JfrCpuTimeSampleSource(int maxStackDepth, ThreadFactory threadFactory, DiskSpaceGuard diskSpace) {
        this(maxStackDepth, threadFactory, diskSpace, new CpuTimeSamplerCheck());
    }

    /** @param sampler whether the CPU-time sampler records here (shareable with the jfr-cpu-time engine's answer) */
    public JfrCpuTimeSampleSource(int maxStackDepth, ThreadFactory threadFactory, DiskSpaceGuard diskSpace,
            CpuTimeSamplerCheck sampler) {
        this(maxStackDepth, threadFactory, diskSpace, JfrPeriodicTaskKeeper.none(), sampler, null);
    }

    /**
     * @param whenSilent what samples instead when the probe finds the sampler silent (another SIGPROF handler came
     *        first: the sessions will not record with jfr-cpu-time either); null to be unavailable then
     */
    JfrCpuTimeSampleSource(int maxStackDepth, ThreadFactory threadFactory, DiskSpaceGuard diskSpace,
            JfrPeriodicTaskKeeper jfrKeeper, CpuTimeSamplerCheck sampler, LookbackSource whenSilent) {
        this.maxStackDepth = maxStackDepth;
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        this.diskSpace = Objects.requireNonNull(diskSpace, "diskSpace");
        this.jfrKeeper = Objects.requireNonNull(jfrKeeper, "jfrKeeper");
        this.sampler = Objects.requireNonNull(sampler, "sampler");
        this.whenSilent = whenSilent;
    }

    /** {@code jdk.CPUTimeSample}, or the stand-in's description and why once the sampler proved silent. */
    @Override
    public String description() {
        String why = silence;
        return why == null ? EVENT : whenSilent.description() + " (" + EVENT + " records nothing here: " + why + ")";
    }

    @Override
    public Recording start(Duration period, LookbackSource.Sink sink) throws LookbackSource.UnavailableException {
        Optional<String> unsupported = sampler.unsupportedPlatform();
        if (unsupported.isPresent()) {
            throw new LookbackSource.UnavailableException(unsupported.get());
        }
        // Before the event lookup and the probe initialise JFR and write through it.
        Optional<String> full = diskSpace.jfrRefusal(null);
        if (full.isPresent()) {
            throw new LookbackSource.UnavailableException(full.get());
        }
        Optional<String> missing = sampler.missingEvent();
        if (missing.isPresent()) {
            throw new LookbackSource.UnavailableException(missing.get());
        }
        Optional<String> silent = probe();
        if (silent.isPresent()) {
            if (whenSilent == null) {
                throw new LookbackSource.UnavailableException(silent.get());
            }
            if (silence == null) {
                silence = silent.get();
                log.info("Look-back samples {} instead of {}: {}", whenSilent.description(), EVENT, silent.get());
            }
            return whenSilent.start(period, sink);
        }
        return JfrSampleStream.start(JfrSampleEvent.CPU_TIME, period, sink, maxStackDepth, threadFactory, diskSpace,
                jfrKeeper, JfrExecutionSampleSource.FLUSH_WAIT);
    }

    /** The probe's answer; its short-lived file goes in a private temp directory, removed afterwards. */
    private Optional<String> probe() throws LookbackSource.UnavailableException {
        try (WorkDirectory directory = WorkDirectory.inTemp()) {
            Optional<String> full = diskSpace.jfrRefusal(directory.path());
            if (full.isPresent()) {
                throw new LookbackSource.UnavailableException(full.get());
            }
            return sampler.samplerProblem(directory.path());
        } catch (IOException | RuntimeException e) {
            throw new LookbackSource.UnavailableException("could not probe JFR's CPU-time sampler ("
                    + EngineUnavailableException.unexpected(e) + ")", e);
        }
    }
}
