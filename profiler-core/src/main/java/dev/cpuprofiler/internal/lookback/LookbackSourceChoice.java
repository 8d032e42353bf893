package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.engine.CpuTimeSamplerCheck;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.JfrPeriodicTaskKeeper;
import dev.cpuprofiler.EngineChoice;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;

/**
 * Which JFR event the look-back samples, from the sessions' engine setting and what this JVM has. The look-back should
 * show what the session it precedes will show, so it samples CPU time ({@link JfrCpuTimeSampleSource}) where the
 * sessions record with jfr-cpu-time, and {@code jdk.ExecutionSample} ({@link JfrExecutionSampleSource}) everywhere
 * else. Never CPU time where a session may record with async-profiler: both take SIGPROF, and whichever installs its
 * handler second records nothing.
 *
 * <p>Decided without initialising JFR or recording anything (a profiler that is being built must not): from the OS,
 * JFR's presence and the JDK's bundled settings. The one thing only a recording can tell, whether another SIGPROF
 * handler came first, is asked by the CPU-time source before its first stream; where it did, the sessions will not
 * use jfr-cpu-time either, and the look-back samples {@code jdk.ExecutionSample} instead.
 */
public final class LookbackSourceChoice {

    private final LookbackSource source;
    private final String reason;

    private LookbackSourceChoice(LookbackSource source, String reason) {
        this.source = source;
        this.reason = reason;
    }

    /**
     * @param engine the sessions' engine setting ({@code profiler.cpu.engine})
     * @param maxStackDepth frames kept per sample
     * @param threadFactory makes the thread each look-back stream runs on
     * @param diskSpace the free space kept under JFR's repository
     * @param jfrKeeper told before each stream starts (see {@link JfrPeriodicTaskKeeper})
     */
    public static LookbackSourceChoice choose(EngineChoice engine, int maxStackDepth, ThreadFactory threadFactory,
            DiskSpaceGuard diskSpace, JfrPeriodicTaskKeeper jfrKeeper) {
        return choose(engine, maxStackDepth, threadFactory, diskSpace, jfrKeeper, new CpuTimeSamplerCheck());
    }

    /** @param sampler whether JFR's CPU-time sampler records in this JVM */
    static LookbackSourceChoice choose(EngineChoice engine, int maxStackDepth, ThreadFactory threadFactory,
            DiskSpaceGuard diskSpace, JfrPeriodicTaskKeeper jfrKeeper, CpuTimeSamplerCheck sampler) {
        Objects.requireNonNull(engine, "engine");
        JfrExecutionSampleSource execution = new JfrExecutionSampleSource(maxStackDepth, threadFactory, diskSpace,
                jfrKeeper);
        String setting = "profiler.cpu.engine=" + engine.id();
        switch (engine) {
            case JFR_EXECUTION:
                return new LookbackSourceChoice(execution, JfrExecutionSampleSource.EVENT
                        + ": the sessions record it too (" + setting + ")");
            case ASYNC_PROFILER:
                return new LookbackSourceChoice(execution, JfrExecutionSampleSource.EVENT + ": the sessions record "
                        + "with async-profiler (" + setting + "), which JFR's CPU-time sampler would fight for SIGPROF");
            default:
                break;
        }
        Optional<String> unavailable = sampler.unsupportedPlatform().or(sampler::missingFromBundledSettings);
        if (unavailable.isPresent()) {
            return new LookbackSourceChoice(execution, JfrExecutionSampleSource.EVENT + ": " + (engine
                    == EngineChoice.AUTO ? "the sessions record with async-profiler or jfr-execution (" + setting
                            + ")" : "the sessions cannot record (" + setting + ")") + ", as "
                    + unavailable.get());
        }
        return new LookbackSourceChoice(
                new JfrCpuTimeSampleSource(maxStackDepth, threadFactory, diskSpace, jfrKeeper, sampler, execution),
                JfrCpuTimeSampleSource.EVENT + ": the sessions record with jfr-cpu-time (" + setting + "); "
                        + JfrExecutionSampleSource.EVENT + " instead if JFR's CPU-time sampler proves silent here");
    }

    /** The source to give the look-back. */
    public LookbackSource source() {
        return source;
    }

    /** Why this source, in one line: for the status and the log. */
    public String reason() {
        return reason;
    }

    @Override
    public String toString() {
        return reason;
    }
}
