package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.CpuProfilerOptions;

import dev.cpuprofiler.internal.baseline.BaselineSettings;
import dev.cpuprofiler.internal.lookback.ArmingSettings;
import dev.cpuprofiler.internal.lookback.LookbackSettings;
import dev.cpuprofiler.internal.session.SessionSettings;
import dev.cpuprofiler.internal.threads.ThreadTrackerSettings;
import dev.cpuprofiler.internal.trigger.SaturationSettings;
import dev.cpuprofiler.internal.trigger.TriggerSettings;
import java.time.Duration;

/**
 * Each stage's settings record, built from the options. The stages never see {@link CpuProfilerOptions}: the
 * pipeline's imports run one way, from this facade down.
 */
public final class StageSettings {

    /** How long past its duration a CPU-triggered session may run before the policy gives up on it. */
    static final Duration WATCHDOG_GRACE = Duration.ofSeconds(30);

    private StageSettings() {
    }

    public static BaselineSettings baseline(CpuProfilerOptions o) {
        return new BaselineSettings(o.getRollingHistorySize(), o.getRollingHistoryInterval(), o.getAverageWindow(),
                o.getSamplingInterval());
    }

    public static SessionSettings session(CpuProfilerOptions o) {
        return new SessionSettings(o.getEngine(), o.getStackSamplingPeriod(), o.getMaxStackDepth(),
                o.getMaxTreeNodes(), o.isGroupByThread(), o.isJfrIncludeSystemInfo(), o.getMaxEndpoints());
    }

    public static TriggerSettings trigger(CpuProfilerOptions o) {
        return new TriggerSettings(o.isEnabled(), o.getThreshold(), o.getCooldown(), o.getDuration(),
                WATCHDOG_GRACE, o.getStartupGrace());
    }

    /** The saturation trigger: off without per-thread CPU, or with the CPU trigger off. */
    public static SaturationSettings saturation(CpuProfilerOptions o, boolean threadCpu) {
        return new SaturationSettings(o.isEnabled() && o.isSaturationEnabled() && threadCpu,
                o.getSaturationThreshold(), o.effectiveSaturationWindow());
    }

    public static ThreadTrackerSettings threads(CpuProfilerOptions o) {
        return ThreadTrackerSettings.of(o.effectiveSaturationWindow(), o.getSaturationThreshold());
    }

    /** When the look-back records: armed by the CPU below the trigger's threshold, held back as the trigger is. */
    public static ArmingSettings arming(CpuProfilerOptions o) {
        return ArmingSettings.of(o.getThreshold(), o.getLookbackArmingRatio(), o.getSamplingInterval(),
                o.getAverageWindow(), o.getLookback(), o.getStartupGrace(),
                o.isSaturationEnabled() ? o.getSaturationThreshold() : Double.NaN);
    }

    /** Look-back for the sessions these options describe: same depth, threads and weight unit. */
    public static LookbackSettings lookback(CpuProfilerOptions o) {
        SessionSettings sessions = session(o);
        return new LookbackSettings(o.getLookback(), o.getLookbackSamplingPeriod(), sessions.samplingPeriod(),
                sessions.maxStackDepth(), Math.min(sessions.maxTreeNodes(), LookbackSettings.DEFAULT_MAX_TREE_NODES),
                sessions.groupByThread());
    }
}
