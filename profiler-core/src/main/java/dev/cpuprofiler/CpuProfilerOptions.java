package dev.cpuprofiler;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * Every {@code profiler.cpu.*} setting, nested as the properties are ({@link Jfr}, {@link Saturation},
 * {@link Reference}): each a typed field whose initialiser is its default, its allowed values in {@link #validate()}.
 * What each one means is the Javadoc of the starter's {@code CpuProfilerProperties}. A JavaBean, so that code can
 * change it ({@code CpuProfilerCustomizer}); the accessors hold nothing else and take a line each. The pipeline's
 * stages read the settings they use from here.
 */
public final class CpuProfilerOptions implements Cloneable {

    public static final String PREFIX = "profiler.cpu.";
    /** The shortest and longest profile: {@code duration}, {@code reference.duration}, an on-demand start's. */
    public static final Duration MIN_DURATION = Duration.ofSeconds(1);
    public static final Duration MAX_DURATION = Duration.ofHours(1);
    /** The largest {@code max-stack-depth}: async-profiler's own limit, and what the renderers are sized for. */
    public static final int LARGEST_STACK_DEPTH = 8192;
    /** The largest {@code max-tree-nodes}. */
    public static final int LARGEST_TREE_NODES = 10_000_000;
    /** {@code min-free-disk-space} unset: 5% of each filesystem, at least 64 MB and at most 512 MB. */
    public static final long AUTO_FREE_DISK_SPACE = -1;
    private static final long MB = 1024 * 1024;

    private boolean enabled = true;
    public boolean isEnabled() { return enabled; }
    public void setEnabled(boolean enabled) { this.enabled = enabled; }
    private double threshold = 80;
    public double getThreshold() { return threshold; }
    public void setThreshold(double threshold) { this.threshold = threshold; }
    private Duration cooldown = Duration.ofHours(4);
    public Duration getCooldown() { return cooldown; }
    public void setCooldown(Duration cooldown) { this.cooldown = cooldown; }
    private Duration duration = Duration.ofSeconds(30);
    public Duration getDuration() { return duration; }
    public void setDuration(Duration duration) { this.duration = duration; }

    private Duration rollingHistorySize = Duration.ofMinutes(10);
    public Duration getRollingHistorySize() { return rollingHistorySize; }
    public void setRollingHistorySize(Duration rollingHistorySize) { this.rollingHistorySize = rollingHistorySize; }
    private Duration rollingHistoryInterval = Duration.ofSeconds(30);
    public Duration getRollingHistoryInterval() { return rollingHistoryInterval; }
    public void setRollingHistoryInterval(Duration interval) { this.rollingHistoryInterval = interval; }
    private Duration averageWindow = Duration.ofSeconds(30);
    public Duration getAverageWindow() { return averageWindow; }
    public void setAverageWindow(Duration averageWindow) { this.averageWindow = averageWindow; }
    private Duration samplingInterval = Duration.ofSeconds(1);
    public Duration getSamplingInterval() { return samplingInterval; }
    public void setSamplingInterval(Duration samplingInterval) { this.samplingInterval = samplingInterval; }
    private Duration pollingInterval = Duration.ofSeconds(5);
    public Duration getPollingInterval() { return pollingInterval; }
    public void setPollingInterval(Duration pollingInterval) { this.pollingInterval = pollingInterval; }

    private CpuSourceMode source = CpuSourceMode.AUTO;
    public CpuSourceMode getSource() { return source; }
    public void setSource(CpuSourceMode source) { this.source = source; }
    private EngineChoice engine = EngineChoice.AUTO;
    public EngineChoice getEngine() { return engine; }
    public void setEngine(EngineChoice engine) { this.engine = engine; }
    private Duration stackSamplingPeriod = Duration.ofMillis(10);
    public Duration getStackSamplingPeriod() { return stackSamplingPeriod; }
    public void setStackSamplingPeriod(Duration period) { this.stackSamplingPeriod = period; }

    private int retainedProfiles = 10;
    public int getRetainedProfiles() { return retainedProfiles; }
    public void setRetainedProfiles(int retainedProfiles) { this.retainedProfiles = retainedProfiles; }
    private long retainedSize = 32 * MB; // in bytes, as min-free-disk-space
    public long getRetainedSize() { return retainedSize; }
    public void setRetainedSize(long bytes) { this.retainedSize = bytes; }
    private Path outputDirectory;
    public Path getOutputDirectory() { return outputDirectory; }
    public void setOutputDirectory(Path outputDirectory) { this.outputDirectory = outputDirectory; }
    private int outputRetention = 20;
    public int getOutputRetention() { return outputRetention; }
    public void setOutputRetention(int outputRetention) { this.outputRetention = outputRetention; }

    private int maxStackDepth = 512;
    public int getMaxStackDepth() { return maxStackDepth; }
    public void setMaxStackDepth(int maxStackDepth) { this.maxStackDepth = maxStackDepth; }
    private int maxTreeNodes = 200_000;
    public int getMaxTreeNodes() { return maxTreeNodes; }
    public void setMaxTreeNodes(int maxTreeNodes) { this.maxTreeNodes = maxTreeNodes; }
    private int maxEndpoints = 100;
    public int getMaxEndpoints() { return maxEndpoints; }
    public void setMaxEndpoints(int maxEndpoints) { this.maxEndpoints = maxEndpoints; }
    private String traceUrlTemplate;
    public String getTraceUrlTemplate() { return traceUrlTemplate; }
    public void setTraceUrlTemplate(String traceUrlTemplate) { this.traceUrlTemplate = traceUrlTemplate; }
    private boolean groupByThread;
    public boolean isGroupByThread() { return groupByThread; }
    public void setGroupByThread(boolean groupByThread) { this.groupByThread = groupByThread; }

    private Duration lookback = Duration.ofSeconds(30);
    public Duration getLookback() { return lookback; }
    public void setLookback(Duration lookback) { this.lookback = lookback; }
    private double lookbackArmingRatio = 0.6;
    public double getLookbackArmingRatio() { return lookbackArmingRatio; }
    public void setLookbackArmingRatio(double ratio) { this.lookbackArmingRatio = ratio; }
    // Coarse because an armed look-back costs mostly JFR's sampler waking each period (BENCHMARKS.md); 30 s of it
    // still hold 600 samples.
    private Duration lookbackSamplingPeriod = Duration.ofMillis(50);
    public Duration getLookbackSamplingPeriod() { return lookbackSamplingPeriod; }
    public void setLookbackSamplingPeriod(Duration period) { this.lookbackSamplingPeriod = period; }

    private Duration startupGrace = Duration.ofMinutes(1);
    public Duration getStartupGrace() { return startupGrace; }
    public void setStartupGrace(Duration startupGrace) { this.startupGrace = startupGrace; }
    private long minFreeDiskSpace = AUTO_FREE_DISK_SPACE; // unset
    public long getMinFreeDiskSpace() { return minFreeDiskSpace; }
    public void setMinFreeDiskSpace(long bytes) { this.minFreeDiskSpace = bytes; }

    private Jfr jfr = new Jfr();
    public Jfr getJfr() { return jfr; }

    private Saturation saturation = new Saturation();
    public Saturation getSaturation() { return saturation; }

    private Reference reference = new Reference();
    public Reference getReference() { return reference; }

    private Latency latency = new Latency();
    public Latency getLatency() { return latency; }

    /** {@code profiler.cpu.jfr.*}. */
    public static final class Jfr implements Cloneable {

        private boolean includeSystemInfo;
        public boolean isIncludeSystemInfo() { return includeSystemInfo; }
        public void setIncludeSystemInfo(boolean includeSystemInfo) { this.includeSystemInfo = includeSystemInfo; }

        private Jfr copy() throws CloneNotSupportedException { return (Jfr) clone(); }
    }

    /** {@code profiler.cpu.saturation.*}. */
    public static final class Saturation implements Cloneable {

        private boolean enabled = true;
        public boolean isEnabled() { return enabled; }
        public void setEnabled(boolean enabled) { this.enabled = enabled; }
        private double threshold = 90;
        public double getThreshold() { return threshold; }
        public void setThreshold(double threshold) { this.threshold = threshold; }
        private Duration window; // unset: effectiveSaturationWindow()
        public Duration getWindow() { return window; }
        public void setWindow(Duration window) { this.window = window; }

        private Saturation copy() throws CloneNotSupportedException { return (Saturation) clone(); }
    }

    /** {@code profiler.cpu.reference.*}: the reference of normal, recorded while the application is calm. */
    public static final class Reference implements Cloneable {

        /** The longest {@code refresh}: beyond a month a reference is as good as never renewed. */
        public static final Duration MAX_REFRESH = Duration.ofDays(30);

        private boolean enabled = true;
        public boolean isEnabled() { return enabled; }
        public void setEnabled(boolean enabled) { this.enabled = enabled; }
        private Duration duration = Duration.ofSeconds(10);
        public Duration getDuration() { return duration; }
        public void setDuration(Duration duration) { this.duration = duration; }
        private Duration refresh = Duration.ofHours(1);
        public Duration getRefresh() { return refresh; }
        public void setRefresh(Duration refresh) { this.refresh = refresh; }

        private Reference copy() throws CloneNotSupportedException { return (Reference) clone(); }
    }

    /**
     * {@code profiler.latency.*}: the latency trigger, which records a LATENCY profile when an endpoint's requests turn
     * slow, with what they waited on.
     */
    public static final class Latency implements Cloneable {

        public static final String PREFIX = "profiler.latency.";

        private boolean enabled = true;
        public boolean isEnabled() { return enabled; }
        public void setEnabled(boolean enabled) { this.enabled = enabled; }
        private Duration threshold = Duration.ofMillis(200);
        public Duration getThreshold() { return threshold; }
        public void setThreshold(Duration threshold) { this.threshold = threshold; }
        private double slowShare = 0.5;
        public double getSlowShare() { return slowShare; }
        public void setSlowShare(double slowShare) { this.slowShare = slowShare; }
        private int minRequests = 20;
        public int getMinRequests() { return minRequests; }
        public void setMinRequests(int minRequests) { this.minRequests = minRequests; }
        private Duration window = Duration.ofSeconds(30);
        public Duration getWindow() { return window; }
        public void setWindow(Duration window) { this.window = window; }
        private double normalFactor = 2.0;
        public double getNormalFactor() { return normalFactor; }
        public void setNormalFactor(double normalFactor) { this.normalFactor = normalFactor; }
        private Duration cooldown = Duration.ofHours(1);
        public Duration getCooldown() { return cooldown; }
        public void setCooldown(Duration cooldown) { this.cooldown = cooldown; }
        private Duration waitThreshold = Duration.ofMillis(1);
        public Duration getWaitThreshold() { return waitThreshold; }
        public void setWaitThreshold(Duration waitThreshold) { this.waitThreshold = waitThreshold; }

        private Latency copy() throws CloneNotSupportedException { return (Latency) clone(); }
    }

    /** The saturation window in use: as set, else a minute, or the rolling history when that is shorter. */
    public Duration effectiveSaturationWindow() {
        Duration minute = Duration.ofMinutes(1);
        return saturation.window != null ? saturation.window
                : rollingHistorySize != null && rollingHistorySize.compareTo(minute) < 0 ? rollingHistorySize : minute;
    }

    /** An independent copy, so a running profiler never sees later changes. */
    public CpuProfilerOptions copy() {
        try {
            CpuProfilerOptions copy = (CpuProfilerOptions) super.clone();
            copy.jfr = jfr.copy();
            copy.saturation = saturation.copy();
            copy.reference = reference.copy();
            copy.latency = latency.copy();
            return copy;
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
                rollingHistorySize.toNanos() / rollingHistoryInterval.toNanos() <= 100_000,
                "must hold at most 100000 rolling-history-interval slots");
        between("average-window", averageWindow, "rolling-history-interval", rollingHistoryInterval,
                "rolling-history-size", rollingHistorySize);
        between("polling-interval", pollingInterval, Duration.ofMillis(10), Duration.ofHours(1));
        check("source", source, source != null, "must be one of auto, cgroup, process");
        check("engine", engine, engine != null, "must be one of " + String.join(", ",
                Arrays.stream(EngineChoice.values()).map(EngineChoice::id).toList()));
        between("stack-sampling-period", stackSamplingPeriod, Duration.ofMillis(1), Duration.ofSeconds(1));
        between("retained-profiles", retainedProfiles, 1, 1000);
        check("retained-size", retainedSize + "B", retainedSize >= MB, "must be at least 1MB");
        between("output-retention", outputRetention, 1, 100_000);
        between("max-stack-depth", maxStackDepth, 8, LARGEST_STACK_DEPTH);
        between("max-tree-nodes", maxTreeNodes, 100, LARGEST_TREE_NODES);
        between("max-endpoints", maxEndpoints, 1, 10_000);
        check("trace-url-template", traceUrlTemplate, traceUrlTemplate == null || traceUrlTemplate.contains("{traceId}")
                && traceUrlTemplate.matches("https?://.*"), "must be an http(s) URL with {traceId} in it");
        Duration minLookback = Duration.ofSeconds(1);
        Duration maxLookback = Duration.ofMinutes(10);
        check("lookback", lookback, lookback != null && (lookback.isZero() || (lookback.compareTo(minLookback) >= 0
                && lookback.compareTo(maxLookback) <= 0)), "must be 0 (off) or between " + minLookback + " and "
                        + maxLookback);
        check("lookback-arming-ratio", lookbackArmingRatio, lookbackArmingRatio > 0 && lookbackArmingRatio <= 1,
                "must be greater than 0 and at most 1");
        between("lookback-sampling-period", lookbackSamplingPeriod, Duration.ofMillis(10), Duration.ofSeconds(1));
        between("startup-grace", startupGrace, Duration.ZERO, Duration.ofHours(1));
        check("min-free-disk-space", minFreeDiskSpace + "B", minFreeDiskSpace >= 0
                || minFreeDiskSpace == AUTO_FREE_DISK_SPACE, "must be at least 0B (0 turns the check off); leave it "
                        + "unset for 5% of each filesystem, between 64MB and 512MB");
        between("saturation.threshold", saturation.threshold, 50.0, 100.0);
        if (saturation.window != null) {
            between("saturation.window", saturation.window, "sampling-interval", samplingInterval,
                    "rolling-history-size", rollingHistorySize);
        }
        between("reference.duration", reference.duration, MIN_DURATION, MAX_DURATION);
        between("reference.refresh", reference.refresh, "reference.duration", reference.duration, null,
                Reference.MAX_REFRESH);
        latencyBetween("threshold", latency.threshold, Duration.ofMillis(1), Duration.ofMinutes(10));
        latencyBetween("slow-share", latency.slowShare, 0.01, 1.0);
        latencyBetween("min-requests", latency.minRequests, 1, 1_000_000);
        latencyBetween("window", latency.window, Duration.ofSeconds(5), Duration.ofHours(1));
        latencyBetween("normal-factor", latency.normalFactor, 1.0, 100.0);
        InvalidOptionException.check(Latency.PREFIX + "cooldown", latency.cooldown, latency.cooldown != null
                && !latency.cooldown.isNegative(), "must be zero or positive");
        latencyBetween("wait-threshold", latency.waitThreshold, Duration.ZERO, Duration.ofSeconds(10));
        return this;
    }

    private static <T extends Comparable<? super T>> void latencyBetween(String key, T value, T min, T max) {
        InvalidOptionException.check(Latency.PREFIX + key, value, value != null && value.compareTo(min) >= 0
                && value.compareTo(max) <= 0, "must be between " + min + " and " + max);
    }

    /**
     * Checks the length an on-demand profile asks for ({@link CpuProfiler#startOnDemand}).
     *
     * @throws InvalidOptionException naming {@code duration} and the range, {@link #MIN_DURATION} to
     *     {@link #MAX_DURATION}, as properties write it ({@code between 1s and 1h})
     */
    public static void checkOnDemandDuration(Duration duration) {
        InvalidOptionException.check("duration", duration, duration != null && duration.compareTo(MIN_DURATION) >= 0
                && duration.compareTo(MAX_DURATION) <= 0, "must be between " + words(MIN_DURATION) + " and "
                        + words(MAX_DURATION));
    }

    /** {@code 1s}, {@code 1h}: whole hours, minutes or seconds as properties write them. */
    private static String words(Duration d) {
        long s = d.toSeconds();
        return s % 3600 == 0 ? s / 3600 + "h" : s % 60 == 0 ? s / 60 + "m" : s + "s";
    }

    private static void check(String key, Object value, boolean allowed, String rule) {
        InvalidOptionException.check(PREFIX + key, value, allowed, rule);
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
}
