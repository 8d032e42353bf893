package dev.cpuprofiler;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * Every {@code profiler.cpu.*} setting, as a JavaBean: its default is its field's initial value, its allowed values are
 * checked in {@link #validate()}, only here; the starter's {@code CpuProfilerProperties} is tested against it.
 */
public final class CpuProfilerOptions implements Cloneable {

    public static final String PREFIX = "profiler.cpu.";
    /** {@code min-free-disk-space} unset: 5% of each filesystem, at least 64 MB and at most 512 MB. */
    public static final long AUTO_FREE_DISK_SPACE = -1;
    /** The shortest profile ({@code duration}, and what an on-demand start may ask for). */
    public static final Duration MIN_DURATION = Duration.ofSeconds(1);
    /** The longest profile. */
    public static final Duration MAX_DURATION = Duration.ofHours(1);
    /** The baseline's circular buffer holds at most this many slots. */
    public static final int MAX_HISTORY_SLOTS = 100_000;
    /** The least memory {@code retained-size} may give the profiles. */
    public static final long MIN_RETAINED_BYTES = 1024 * 1024;
    /** The finest and coarsest stack sampling period an engine takes. */
    public static final Duration MIN_STACK_SAMPLING_PERIOD = Duration.ofMillis(1);
    public static final Duration MAX_STACK_SAMPLING_PERIOD = Duration.ofSeconds(1);
    /** The shortest and longest look-back window (0 turns it off). */
    public static final Duration MIN_LOOKBACK = Duration.ofSeconds(1);
    public static final Duration MAX_LOOKBACK = Duration.ofMinutes(10);
    public static final Duration MIN_LOOKBACK_SAMPLING_PERIOD = Duration.ofMillis(10);
    public static final Duration MAX_LOOKBACK_SAMPLING_PERIOD = Duration.ofSeconds(1);
    /**
     * 50 ms: an armed look-back costs mostly JFR's sampler waking each period (~170 µs with 50 threads): 20 ms took
     * 0.7-1.0% of a core on a busy 2-CPU app, 50 ms 0.45% (LookbackOverheadMeasure); 30 s still hold 600 samples.
     */
    public static final Duration DEFAULT_LOOKBACK_SAMPLING_PERIOD = Duration.ofMillis(50);
    /** {@code saturation.window} unset: this, or {@code rolling-history-size} when that is shorter. */
    public static final Duration DEFAULT_SATURATION_WINDOW = Duration.ofMinutes(1);

    private boolean enabled = true;
    private double threshold = 80.0;
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
    private int maxEndpoints = 100;
    private String traceUrlTemplate;
    private boolean groupByThread;
    private Duration lookback = Duration.ofSeconds(30);
    private double lookbackArmingRatio = 0.6;
    private Duration lookbackSamplingPeriod = DEFAULT_LOOKBACK_SAMPLING_PERIOD;
    private Duration startupGrace = Duration.ofSeconds(60);
    private long minFreeDiskSpace = AUTO_FREE_DISK_SPACE;
    private boolean jfrIncludeSystemInfo;
    private boolean saturationEnabled = true;
    private double saturationThreshold = 90.0;
    private Duration saturationWindow;

    /** An independent copy, so a running profiler never sees later changes (every field is an immutable value). */
    public CpuProfilerOptions copy() {
        try {
            return (CpuProfilerOptions) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    /** @throws InvalidOptionException naming the first setting out of range (one bounded by another after it) */
    public CpuProfilerOptions validate() {
        check("threshold", threshold, threshold > 0 && threshold <= 100,
                "must be a percentage greater than 0 and at most 100");
        check("cooldown", cooldown, cooldown != null && !cooldown.isNegative(), "must be zero or positive");
        between("duration", duration, MIN_DURATION, MAX_DURATION);
        between("sampling-interval", samplingInterval, Duration.ofMillis(10), Duration.ofMinutes(1));
        between("rolling-history-interval", rollingHistoryInterval, "sampling-interval", samplingInterval,
                null, Duration.ofHours(1));
        between("rolling-history-size", rollingHistorySize, "rolling-history-interval", rollingHistoryInterval,
                null, Duration.ofDays(1));
        check("rolling-history-size", rollingHistorySize,
                rollingHistorySize.toNanos() / rollingHistoryInterval.toNanos() <= MAX_HISTORY_SLOTS,
                "must hold at most " + MAX_HISTORY_SLOTS + " rolling-history-interval slots");
        between("average-window", averageWindow, "rolling-history-interval", rollingHistoryInterval,
                "rolling-history-size", rollingHistorySize);
        between("polling-interval", pollingInterval, Duration.ofMillis(10), Duration.ofHours(1));
        check("source", source, source != null, "must be one of auto, cgroup, process");
        check("engine", engine, engine != null, "must be one of " + String.join(", ",
                Arrays.stream(EngineChoice.values()).map(EngineChoice::id).toList()));
        between("stack-sampling-period", stackSamplingPeriod, MIN_STACK_SAMPLING_PERIOD, MAX_STACK_SAMPLING_PERIOD);
        between("retained-profiles", retainedProfiles, 1, 1000);
        check("retained-size", retainedBytes + "B", retainedBytes >= MIN_RETAINED_BYTES, "must be at least 1MB");
        between("output-retention", outputRetention, 1, 100_000);
        between("max-stack-depth", maxStackDepth, 8, 8192);
        between("max-tree-nodes", maxTreeNodes, 100, 10_000_000);
        between("max-endpoints", maxEndpoints, 1, 10_000);
        check("trace-url-template", traceUrlTemplate, traceUrlTemplate == null || traceUrlTemplate.contains("{traceId}")
                && traceUrlTemplate.matches("https?://.*"), "must be an http(s) URL with {traceId} in it");
        check("lookback", lookback, lookback != null && (lookback.isZero() || (lookback.compareTo(
                MIN_LOOKBACK) >= 0 && lookback.compareTo(MAX_LOOKBACK) <= 0)),
                "must be 0 (off) or between " + MIN_LOOKBACK + " and " + MAX_LOOKBACK);
        check("lookback-arming-ratio", lookbackArmingRatio, lookbackArmingRatio > 0 && lookbackArmingRatio <= 1,
                "must be greater than 0 and at most 1");
        between("lookback-sampling-period", lookbackSamplingPeriod, MIN_LOOKBACK_SAMPLING_PERIOD,
                MAX_LOOKBACK_SAMPLING_PERIOD);
        between("startup-grace", startupGrace, Duration.ZERO, Duration.ofHours(1));
        check("min-free-disk-space", minFreeDiskSpace + "B", minFreeDiskSpace >= 0
                || minFreeDiskSpace == AUTO_FREE_DISK_SPACE, "must be at least 0B (0 turns the check off); leave it "
                        + "unset for 5% of each filesystem, between 64MB and 512MB");
        between("saturation.threshold", saturationThreshold, 50.0, 100.0);
        if (saturationWindow != null) {
            between("saturation.window", saturationWindow, "sampling-interval", samplingInterval,
                    "rolling-history-size", rollingHistorySize);
        }
        return this;
    }

    private static void check(String key, Object value, boolean allowed, String rule) {
        if (!allowed) {
            throw new InvalidOptionException(PREFIX + key, value, rule);
        }
    }

    private static <T extends Comparable<? super T>> void between(String key, T value, T min, T max) {
        check(key, value, value != null && value.compareTo(min) >= 0 && value.compareTo(max) <= 0,
                "must be between " + min + " and " + max);
    }

    /** A range with another setting as a bound ({@code minKey} or {@code maxKey} null: {@code min} is constant). */
    private static void between(String key, Duration value, String minKey, Duration min, String maxKey,
            Duration max) {
        check(key, value, value != null && value.compareTo(min) >= 0 && value.compareTo(max) <= 0, "must be at least "
                + (minKey == null ? min : PREFIX + minKey + " (" + min + ")") + " and at most "
                + (maxKey == null ? max : PREFIX + maxKey + " (" + max + ")"));
    }

    // What each setting means is documented in the starter's CpuProfilerProperties (what IDEs show) and README.

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public double getThreshold() {
        return threshold;
    }

    public void setThreshold(double threshold) {
        this.threshold = threshold;
    }

    public Duration getCooldown() {
        return cooldown;
    }

    public void setCooldown(Duration cooldown) {
        this.cooldown = cooldown;
    }

    public Duration getDuration() {
        return duration;
    }

    public void setDuration(Duration duration) {
        this.duration = duration;
    }

    public Duration getSamplingInterval() {
        return samplingInterval;
    }

    public void setSamplingInterval(Duration samplingInterval) {
        this.samplingInterval = samplingInterval;
    }

    public Duration getPollingInterval() {
        return pollingInterval;
    }

    public void setPollingInterval(Duration pollingInterval) {
        this.pollingInterval = pollingInterval;
    }

    public Duration getRollingHistorySize() {
        return rollingHistorySize;
    }

    public void setRollingHistorySize(Duration rollingHistorySize) {
        this.rollingHistorySize = rollingHistorySize;
    }

    public Duration getRollingHistoryInterval() {
        return rollingHistoryInterval;
    }

    public void setRollingHistoryInterval(Duration rollingHistoryInterval) {
        this.rollingHistoryInterval = rollingHistoryInterval;
    }

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

    public Duration getStackSamplingPeriod() {
        return stackSamplingPeriod;
    }

    public void setStackSamplingPeriod(Duration stackSamplingPeriod) {
        this.stackSamplingPeriod = stackSamplingPeriod;
    }

    public int getRetainedProfiles() {
        return retainedProfiles;
    }

    public void setRetainedProfiles(int retainedProfiles) {
        this.retainedProfiles = retainedProfiles;
    }

    public long getRetainedBytes() {
        return retainedBytes;
    }

    public void setRetainedBytes(long retainedBytes) {
        this.retainedBytes = retainedBytes;
    }

    public Path getOutputDirectory() {
        return outputDirectory;
    }

    public void setOutputDirectory(Path outputDirectory) {
        this.outputDirectory = outputDirectory;
    }

    public int getOutputRetention() {
        return outputRetention;
    }

    public void setOutputRetention(int outputRetention) {
        this.outputRetention = outputRetention;
    }

    public int getMaxStackDepth() {
        return maxStackDepth;
    }

    public void setMaxStackDepth(int maxStackDepth) {
        this.maxStackDepth = maxStackDepth;
    }

    public int getMaxTreeNodes() {
        return maxTreeNodes;
    }

    public void setMaxTreeNodes(int maxTreeNodes) {
        this.maxTreeNodes = maxTreeNodes;
    }

    public int getMaxEndpoints() {
        return maxEndpoints;
    }

    public void setMaxEndpoints(int maxEndpoints) {
        this.maxEndpoints = maxEndpoints;
    }

    public String getTraceUrlTemplate() {
        return traceUrlTemplate;
    }

    public void setTraceUrlTemplate(String traceUrlTemplate) {
        this.traceUrlTemplate = traceUrlTemplate;
    }

    public boolean isGroupByThread() {
        return groupByThread;
    }

    public void setGroupByThread(boolean groupByThread) {
        this.groupByThread = groupByThread;
    }

    public boolean isJfrIncludeSystemInfo() {
        return jfrIncludeSystemInfo;
    }

    public void setJfrIncludeSystemInfo(boolean jfrIncludeSystemInfo) {
        this.jfrIncludeSystemInfo = jfrIncludeSystemInfo;
    }

    public Duration getLookback() {
        return lookback;
    }

    public void setLookback(Duration lookback) {
        this.lookback = lookback;
    }

    public double getLookbackArmingRatio() {
        return lookbackArmingRatio;
    }

    public void setLookbackArmingRatio(double lookbackArmingRatio) {
        this.lookbackArmingRatio = lookbackArmingRatio;
    }

    public Duration getLookbackSamplingPeriod() {
        return lookbackSamplingPeriod;
    }

    public void setLookbackSamplingPeriod(Duration lookbackSamplingPeriod) {
        this.lookbackSamplingPeriod = lookbackSamplingPeriod;
    }

    public Duration getStartupGrace() {
        return startupGrace;
    }

    public void setStartupGrace(Duration startupGrace) {
        this.startupGrace = startupGrace;
    }

    public long getMinFreeDiskSpace() {
        return minFreeDiskSpace;
    }

    public void setMinFreeDiskSpace(long minFreeDiskSpace) {
        this.minFreeDiskSpace = minFreeDiskSpace;
    }

    public boolean isSaturationEnabled() {
        return saturationEnabled;
    }

    public void setSaturationEnabled(boolean saturationEnabled) {
        this.saturationEnabled = saturationEnabled;
    }

    public double getSaturationThreshold() {
        return saturationThreshold;
    }

    public void setSaturationThreshold(double saturationThreshold) {
        this.saturationThreshold = saturationThreshold;
    }

    /** The saturation window as set; null for {@link #effectiveSaturationWindow()}'s default. */
    public Duration getSaturationWindow() {
        return saturationWindow;
    }

    /** The saturation window in use: as set, else {@link #DEFAULT_SATURATION_WINDOW} within the rolling history. */
    public Duration effectiveSaturationWindow() {
        if (saturationWindow != null) {
            return saturationWindow;
        }
        return rollingHistorySize != null && rollingHistorySize.compareTo(DEFAULT_SATURATION_WINDOW) < 0
                ? rollingHistorySize : DEFAULT_SATURATION_WINDOW;
    }

    public void setSaturationWindow(Duration saturationWindow) {
        this.saturationWindow = saturationWindow;
    }
}
