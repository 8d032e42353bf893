package dev.cpuprofiler.core;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Every {@code profiler.cpu.*} setting as a JavaBean. Defaults mirror the original CPU-triggered profiler.
 * {@link #validate()} checks the ranges; each message names the property.
 */
public final class CpuProfilerOptions {

    public static final String PREFIX = "profiler.cpu.";
    /** {@code min-free-disk-space} unset: 5% of each filesystem, at least 64 MB and at most 512 MB. */
    public static final long AUTO_FREE_DISK_SPACE = -1;

    private boolean enabled = true;
    private double threshold = 80;
    private Duration cooldown = Duration.ofHours(4);
    private Duration duration = Duration.ofSeconds(30);
    private Duration samplingInterval = Duration.ofSeconds(1);
    private Duration pollingInterval = Duration.ofSeconds(5);
    private Duration rollingHistorySize = Duration.ofMinutes(10);
    private Duration rollingHistoryInterval = Duration.ofSeconds(30);
    private Duration averageWindow = Duration.ofSeconds(30);
    private CpuSourceMode source = CpuSourceMode.AUTO;
    private EngineChoice engine = EngineChoice.AUTO;
    private Duration stackSamplingPeriod = Duration.ofMillis(10);
    private int retainedProfiles = 10;
    private long retainedBytes = 64L * 1024 * 1024;
    private Path outputDirectory;
    private int outputRetention = 20;
    private int maxStackDepth = 512;
    private int maxTreeNodes = 200_000;
    private boolean groupByThread = false;
    private Duration lookback = Duration.ZERO;
    private Duration lookbackSamplingPeriod = Duration.ofMillis(20);
    private long minFreeDiskSpace = AUTO_FREE_DISK_SPACE;

    public CpuProfilerOptions() {
    }

    /** An independent copy, so a running profiler never sees later changes. */
    public CpuProfilerOptions copy() {
        CpuProfilerOptions c = new CpuProfilerOptions();
        c.enabled = enabled;
        c.threshold = threshold;
        c.cooldown = cooldown;
        c.duration = duration;
        c.samplingInterval = samplingInterval;
        c.pollingInterval = pollingInterval;
        c.rollingHistorySize = rollingHistorySize;
        c.rollingHistoryInterval = rollingHistoryInterval;
        c.averageWindow = averageWindow;
        c.source = source;
        c.engine = engine;
        c.stackSamplingPeriod = stackSamplingPeriod;
        c.retainedProfiles = retainedProfiles;
        c.retainedBytes = retainedBytes;
        c.outputDirectory = outputDirectory;
        c.outputRetention = outputRetention;
        c.maxStackDepth = maxStackDepth;
        c.maxTreeNodes = maxTreeNodes;
        c.groupByThread = groupByThread;
        c.lookback = lookback;
        c.lookbackSamplingPeriod = lookbackSamplingPeriod;
        c.minFreeDiskSpace = minFreeDiskSpace;
        return c;
    }

    /**
     * Checks every setting.
     *
     * @throws InvalidOptionException naming the first property out of range
     */
    public CpuProfilerOptions validate() {
        if (!(threshold > 0 && threshold <= 100)) {
            throw new InvalidOptionException(PREFIX + "threshold", threshold,
                    "must be a percentage greater than 0 and at most 100");
        }
        requireAtLeast("cooldown", cooldown, Duration.ZERO, "must be zero or positive");
        requireBetween("duration", duration, Duration.ofSeconds(1), Duration.ofHours(1));
        requireBetween("sampling-interval", samplingInterval, Duration.ofMillis(10), Duration.ofMinutes(1));
        requireBetween("polling-interval", pollingInterval, Duration.ofMillis(10), Duration.ofHours(1));
        requireBetween("rolling-history-interval", rollingHistoryInterval, samplingInterval, Duration.ofHours(1),
                "at least profiler.cpu.sampling-interval (" + samplingInterval + ") and at most PT1H");
        requireBetween("rolling-history-size", rollingHistorySize, rollingHistoryInterval, Duration.ofDays(1),
                "at least profiler.cpu.rolling-history-interval (" + rollingHistoryInterval + ") and at most P1D");
        if (rollingHistorySize.toNanos() / rollingHistoryInterval.toNanos() > 100_000) {
            throw new InvalidOptionException(PREFIX + "rolling-history-size", rollingHistorySize,
                    "must hold at most 100000 rolling-history-interval slots");
        }
        requireBetween("average-window", averageWindow, rollingHistoryInterval, rollingHistorySize,
                "must be at least profiler.cpu.rolling-history-interval (" + rollingHistoryInterval
                        + ") and at most profiler.cpu.rolling-history-size (" + rollingHistorySize + ")");
        if (source == null) {
            throw new InvalidOptionException(PREFIX + "source", null, "must be one of auto, cgroup, process");
        }
        if (engine == null) {
            throw new InvalidOptionException(PREFIX + "engine", null,
                    "must be one of auto, jfr-cpu-time, async-profiler, jfr-execution");
        }
        requireBetween("stack-sampling-period", stackSamplingPeriod, Duration.ofMillis(1), Duration.ofSeconds(1));
        requireIntBetween("retained-profiles", retainedProfiles, 1, 1000);
        if (retainedBytes < 1024 * 1024) {
            throw new InvalidOptionException(PREFIX + "retained-size", retainedBytes + "B", "must be at least 1MB");
        }
        requireIntBetween("output-retention", outputRetention, 1, 100_000);
        requireIntBetween("max-stack-depth", maxStackDepth, 8, 8192);
        requireIntBetween("max-tree-nodes", maxTreeNodes, 100, 10_000_000);
        if (lookback == null || !lookback.isZero()) {
            requireBetween("lookback", lookback, Duration.ofSeconds(1), Duration.ofMinutes(10),
                    "must be 0 (off) or between PT1S and PT10M");
        }
        requireBetween("lookback-sampling-period", lookbackSamplingPeriod, Duration.ofMillis(10),
                Duration.ofSeconds(1));
        if (minFreeDiskSpace < 0 && minFreeDiskSpace != AUTO_FREE_DISK_SPACE) {
            throw new InvalidOptionException(PREFIX + "min-free-disk-space", minFreeDiskSpace + "B",
                    "must be at least 0B (0 turns the check off); leave it unset for 5% of each filesystem, "
                            + "between 64MB and 512MB");
        }
        return this;
    }

    private static void requireAtLeast(String name, Duration value, Duration min, String allowed) {
        if (value == null || value.compareTo(min) < 0) {
            throw new InvalidOptionException(PREFIX + name, value, allowed);
        }
    }

    private static void requireBetween(String name, Duration value, Duration min, Duration max) {
        requireBetween(name, value, min, max, "must be between " + min + " and " + max);
    }

    private static void requireBetween(String name, Duration value, Duration min, Duration max, String allowed) {
        if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new InvalidOptionException(PREFIX + name, value, allowed);
        }
    }

    private static void requireIntBetween(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new InvalidOptionException(PREFIX + name, value, "must be between " + min + " and " + max);
        }
    }

    /** Whether high CPU starts a profile; monitoring and on-demand profiles work either way. */
    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** CPU percentage (0 &lt; x &le; 100) the average must exceed to start a profile. */
    public double getThreshold() {
        return threshold;
    }

    public void setThreshold(double threshold) {
        this.threshold = threshold;
    }

    /** Quiet time after a CPU-triggered profile ends. */
    public Duration getCooldown() {
        return cooldown;
    }

    public void setCooldown(Duration cooldown) {
        this.cooldown = cooldown;
    }

    /** How long a profile records. */
    public Duration getDuration() {
        return duration;
    }

    public void setDuration(Duration duration) {
        this.duration = duration;
    }

    /** How often CPU usage is sampled. */
    public Duration getSamplingInterval() {
        return samplingInterval;
    }

    public void setSamplingInterval(Duration samplingInterval) {
        this.samplingInterval = samplingInterval;
    }

    /** How often the trigger policy compares the average with the threshold. */
    public Duration getPollingInterval() {
        return pollingInterval;
    }

    public void setPollingInterval(Duration pollingInterval) {
        this.pollingInterval = pollingInterval;
    }

    /** How much history the rolling baseline keeps. */
    public Duration getRollingHistorySize() {
        return rollingHistorySize;
    }

    public void setRollingHistorySize(Duration rollingHistorySize) {
        this.rollingHistorySize = rollingHistorySize;
    }

    /** The length of one baseline slot: each holds the true average over this interval. */
    public Duration getRollingHistoryInterval() {
        return rollingHistoryInterval;
    }

    public void setRollingHistoryInterval(Duration rollingHistoryInterval) {
        this.rollingHistoryInterval = rollingHistoryInterval;
    }

    /** The span of recent slots the reported average covers. */
    public Duration getAverageWindow() {
        return averageWindow;
    }

    public void setAverageWindow(Duration averageWindow) {
        this.averageWindow = averageWindow;
    }

    public CpuSourceMode getSource() {
        return source;
    }

    public void setSource(CpuSourceMode source) {
        this.source = source;
    }

    public EngineChoice getEngine() {
        return engine;
    }

    public void setEngine(EngineChoice engine) {
        this.engine = engine;
    }

    /** Interval between stack samples while a profile records. */
    public Duration getStackSamplingPeriod() {
        return stackSamplingPeriod;
    }

    public void setStackSamplingPeriod(Duration stackSamplingPeriod) {
        this.stackSamplingPeriod = stackSamplingPeriod;
    }

    /** How many recent profiles stay in memory. */
    public int getRetainedProfiles() {
        return retainedProfiles;
    }

    public void setRetainedProfiles(int retainedProfiles) {
        this.retainedProfiles = retainedProfiles;
    }

    /** Upper bound, in bytes, of the memory the retained profiles may take. */
    public long getRetainedBytes() {
        return retainedBytes;
    }

    public void setRetainedBytes(long retainedBytes) {
        this.retainedBytes = retainedBytes;
    }

    /** Where each profile is also written as files; {@code null} keeps profiles in memory only. */
    public Path getOutputDirectory() {
        return outputDirectory;
    }

    public void setOutputDirectory(Path outputDirectory) {
        this.outputDirectory = outputDirectory;
    }

    /** How many profiles the output directory keeps; older ones are deleted. */
    public int getOutputRetention() {
        return outputRetention;
    }

    public void setOutputRetention(int outputRetention) {
        this.outputRetention = outputRetention;
    }

    /** Deepest stack kept in the tree; deeper frames are cut and counted. */
    public int getMaxStackDepth() {
        return maxStackDepth;
    }

    public void setMaxStackDepth(int maxStackDepth) {
        this.maxStackDepth = maxStackDepth;
    }

    /** Most nodes one profile's tree may hold; samples that would need more are counted as truncated. */
    public int getMaxTreeNodes() {
        return maxTreeNodes;
    }

    public void setMaxTreeNodes(int maxTreeNodes) {
        this.maxTreeNodes = maxTreeNodes;
    }

    /** Whether the tree's first level is the thread (numbered pool threads folded into one). */
    public boolean isGroupByThread() {
        return groupByThread;
    }

    public void setGroupByThread(boolean groupByThread) {
        this.groupByThread = groupByThread;
    }

    /**
     * How far back a CPU-triggered profile reaches before its session starts; zero (the default) turns look-back
     * off. Only used while the CPU trigger is on.
     */
    public Duration getLookback() {
        return lookback;
    }

    public void setLookback(Duration lookback) {
        this.lookback = lookback;
    }

    /** The period of look-back's own stack sampler, coarser than a session's to stay cheap. */
    public Duration getLookbackSamplingPeriod() {
        return lookbackSamplingPeriod;
    }

    public void setLookbackSamplingPeriod(Duration lookbackSamplingPeriod) {
        this.lookbackSamplingPeriod = lookbackSamplingPeriod;
    }

    /** Bytes kept free on every filesystem the profiler writes to, or {@link #AUTO_FREE_DISK_SPACE}. */
    public long getMinFreeDiskSpace() {
        return minFreeDiskSpace;
    }

    public void setMinFreeDiskSpace(long minFreeDiskSpace) {
        this.minFreeDiskSpace = minFreeDiskSpace;
    }
}
