package dev.cpuprofiler;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * Every {@code profiler.cpu.*} setting, nested as the properties are ({@link Jfr}, {@link Saturation},
 * {@link Reference}), each written
 * once: its default as a properties file writes it (a {@code DEFAULT_} constant, which the starter's
 * {@code @DefaultValue} names, so the configuration metadata shows the same default) and its allowed values in
 * {@link #validate()}. What each one means is the Javadoc of the starter's {@code CpuProfilerProperties}. A JavaBean,
 * so that code can change it ({@code CpuProfilerCustomizer}); the accessors hold nothing else and take a line each.
 */
public final class CpuProfilerOptions implements Cloneable {

    public static final String PREFIX = "profiler.cpu.";
    /** The shortest and longest profile ({@code duration}, and what an on-demand start may ask for). */
    public static final Duration MIN_DURATION = Duration.ofSeconds(1);
    public static final Duration MAX_DURATION = Duration.ofHours(1);
    /** {@code min-free-disk-space} unset: 5% of each filesystem, at least 64 MB and at most 512 MB. */
    public static final long AUTO_FREE_DISK_SPACE = -1;

    // The defaults, as a properties file writes them; the starter's @DefaultValues name these constants.
    public static final String DEFAULT_ENABLED = "true";
    public static final String DEFAULT_THRESHOLD = "80";
    public static final String DEFAULT_COOLDOWN = "4h";
    public static final String DEFAULT_DURATION = "30s";
    public static final String DEFAULT_ROLLING_HISTORY_SIZE = "10m";
    public static final String DEFAULT_ROLLING_HISTORY_INTERVAL = "30s";
    public static final String DEFAULT_AVERAGE_WINDOW = "30s";
    public static final String DEFAULT_SAMPLING_INTERVAL = "1s";
    public static final String DEFAULT_POLLING_INTERVAL = "5s";
    public static final String DEFAULT_SOURCE = "auto";
    public static final String DEFAULT_ENGINE = "auto";
    public static final String DEFAULT_STACK_SAMPLING_PERIOD = "10ms";
    public static final String DEFAULT_RETAINED_PROFILES = "10";
    public static final String DEFAULT_RETAINED_SIZE = "32MB";
    public static final String DEFAULT_OUTPUT_RETENTION = "20";
    public static final String DEFAULT_MAX_STACK_DEPTH = "512";
    public static final String DEFAULT_MAX_TREE_NODES = "200000";
    public static final String DEFAULT_MAX_ENDPOINTS = "100";
    public static final String DEFAULT_GROUP_BY_THREAD = "false";
    public static final String DEFAULT_LOOKBACK = "30s";
    public static final String DEFAULT_LOOKBACK_ARMING_RATIO = "0.6";
    /**
     * An armed look-back costs mostly JFR's sampler waking each period (~170 µs with 50 threads): 20 ms took 0.7-1.0%
     * of a core on a busy 2-CPU app, 50 ms 0.45% (LookbackOverheadMeasure); 30 s still hold 600 samples.
     */
    public static final String DEFAULT_LOOKBACK_SAMPLING_PERIOD = "50ms";
    public static final String DEFAULT_STARTUP_GRACE = "1m";

    private boolean enabled = Boolean.parseBoolean(DEFAULT_ENABLED);
    public boolean isEnabled() { return enabled; }
    public void setEnabled(boolean enabled) { this.enabled = enabled; }
    private double threshold = Double.parseDouble(DEFAULT_THRESHOLD);
    public double getThreshold() { return threshold; }
    public void setThreshold(double threshold) { this.threshold = threshold; }
    private Duration cooldown = duration(DEFAULT_COOLDOWN);
    public Duration getCooldown() { return cooldown; }
    public void setCooldown(Duration cooldown) { this.cooldown = cooldown; }
    private Duration duration = duration(DEFAULT_DURATION);
    public Duration getDuration() { return duration; }
    public void setDuration(Duration duration) { this.duration = duration; }

    private Duration rollingHistorySize = duration(DEFAULT_ROLLING_HISTORY_SIZE);
    public Duration getRollingHistorySize() { return rollingHistorySize; }
    public void setRollingHistorySize(Duration rollingHistorySize) { this.rollingHistorySize = rollingHistorySize; }
    private Duration rollingHistoryInterval = duration(DEFAULT_ROLLING_HISTORY_INTERVAL);
    public Duration getRollingHistoryInterval() { return rollingHistoryInterval; }
    public void setRollingHistoryInterval(Duration interval) { this.rollingHistoryInterval = interval; }
    private Duration averageWindow = duration(DEFAULT_AVERAGE_WINDOW);
    public Duration getAverageWindow() { return averageWindow; }
    public void setAverageWindow(Duration averageWindow) { this.averageWindow = averageWindow; }
    private Duration samplingInterval = duration(DEFAULT_SAMPLING_INTERVAL);
    public Duration getSamplingInterval() { return samplingInterval; }
    public void setSamplingInterval(Duration samplingInterval) { this.samplingInterval = samplingInterval; }
    private Duration pollingInterval = duration(DEFAULT_POLLING_INTERVAL);
    public Duration getPollingInterval() { return pollingInterval; }
    public void setPollingInterval(Duration pollingInterval) { this.pollingInterval = pollingInterval; }

    private CpuSourceMode source = CpuSourceMode.valueOf(DEFAULT_SOURCE.toUpperCase(Locale.ROOT));
    public CpuSourceMode getSource() { return source; }
    public void setSource(CpuSourceMode source) { this.source = source; }
    private EngineChoice engine = EngineChoice.fromId(DEFAULT_ENGINE);
    public EngineChoice getEngine() { return engine; }
    public void setEngine(EngineChoice engine) { this.engine = engine; }
    private Duration stackSamplingPeriod = duration(DEFAULT_STACK_SAMPLING_PERIOD);
    public Duration getStackSamplingPeriod() { return stackSamplingPeriod; }
    public void setStackSamplingPeriod(Duration period) { this.stackSamplingPeriod = period; }

    private int retainedProfiles = Integer.parseInt(DEFAULT_RETAINED_PROFILES);
    public int getRetainedProfiles() { return retainedProfiles; }
    public void setRetainedProfiles(int retainedProfiles) { this.retainedProfiles = retainedProfiles; }
    private long retainedSize = bytes(DEFAULT_RETAINED_SIZE); // in bytes, as min-free-disk-space
    public long getRetainedSize() { return retainedSize; }
    public void setRetainedSize(long bytes) { this.retainedSize = bytes; }
    private Path outputDirectory;
    public Path getOutputDirectory() { return outputDirectory; }
    public void setOutputDirectory(Path outputDirectory) { this.outputDirectory = outputDirectory; }
    private int outputRetention = Integer.parseInt(DEFAULT_OUTPUT_RETENTION);
    public int getOutputRetention() { return outputRetention; }
    public void setOutputRetention(int outputRetention) { this.outputRetention = outputRetention; }

    private int maxStackDepth = Integer.parseInt(DEFAULT_MAX_STACK_DEPTH);
    public int getMaxStackDepth() { return maxStackDepth; }
    public void setMaxStackDepth(int maxStackDepth) { this.maxStackDepth = maxStackDepth; }
    private int maxTreeNodes = Integer.parseInt(DEFAULT_MAX_TREE_NODES);
    public int getMaxTreeNodes() { return maxTreeNodes; }
    public void setMaxTreeNodes(int maxTreeNodes) { this.maxTreeNodes = maxTreeNodes; }
    private int maxEndpoints = Integer.parseInt(DEFAULT_MAX_ENDPOINTS);
    public int getMaxEndpoints() { return maxEndpoints; }
    public void setMaxEndpoints(int maxEndpoints) { this.maxEndpoints = maxEndpoints; }
    private String traceUrlTemplate;
    public String getTraceUrlTemplate() { return traceUrlTemplate; }
    public void setTraceUrlTemplate(String traceUrlTemplate) { this.traceUrlTemplate = traceUrlTemplate; }
    private boolean groupByThread = Boolean.parseBoolean(DEFAULT_GROUP_BY_THREAD);
    public boolean isGroupByThread() { return groupByThread; }
    public void setGroupByThread(boolean groupByThread) { this.groupByThread = groupByThread; }

    private Duration lookback = duration(DEFAULT_LOOKBACK);
    public Duration getLookback() { return lookback; }
    public void setLookback(Duration lookback) { this.lookback = lookback; }
    private double lookbackArmingRatio = Double.parseDouble(DEFAULT_LOOKBACK_ARMING_RATIO);
    public double getLookbackArmingRatio() { return lookbackArmingRatio; }
    public void setLookbackArmingRatio(double ratio) { this.lookbackArmingRatio = ratio; }
    private Duration lookbackSamplingPeriod = duration(DEFAULT_LOOKBACK_SAMPLING_PERIOD);
    public Duration getLookbackSamplingPeriod() { return lookbackSamplingPeriod; }
    public void setLookbackSamplingPeriod(Duration period) { this.lookbackSamplingPeriod = period; }

    private Duration startupGrace = duration(DEFAULT_STARTUP_GRACE);
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

    /** {@code profiler.cpu.jfr.*}. */
    public static final class Jfr implements Cloneable {

        public static final String DEFAULT_INCLUDE_SYSTEM_INFO = "false";
        private boolean includeSystemInfo = Boolean.parseBoolean(DEFAULT_INCLUDE_SYSTEM_INFO);
        public boolean isIncludeSystemInfo() { return includeSystemInfo; }
        public void setIncludeSystemInfo(boolean includeSystemInfo) { this.includeSystemInfo = includeSystemInfo; }

        private Jfr copy() throws CloneNotSupportedException { return (Jfr) clone(); }
    }

    /** {@code profiler.cpu.saturation.*}. */
    public static final class Saturation implements Cloneable {

        public static final String DEFAULT_ENABLED = "true";
        public static final String DEFAULT_THRESHOLD = "90";

        private boolean enabled = Boolean.parseBoolean(DEFAULT_ENABLED);
        public boolean isEnabled() { return enabled; }
        public void setEnabled(boolean enabled) { this.enabled = enabled; }
        private double threshold = Double.parseDouble(DEFAULT_THRESHOLD);
        public double getThreshold() { return threshold; }
        public void setThreshold(double threshold) { this.threshold = threshold; }
        private Duration window; // unset: effectiveSaturationWindow()
        public Duration getWindow() { return window; }
        public void setWindow(Duration window) { this.window = window; }

        private Saturation copy() throws CloneNotSupportedException { return (Saturation) clone(); }
    }

    /** {@code profiler.cpu.reference.*}: the reference of normal, recorded while the application is calm. */
    public static final class Reference implements Cloneable {

        public static final String DEFAULT_ENABLED = "true";
        public static final String DEFAULT_DURATION = "10s";
        public static final String DEFAULT_REFRESH = "1h";
        /** The longest {@code refresh}: beyond a month a reference is as good as never renewed. */
        public static final Duration MAX_REFRESH = Duration.ofDays(30);

        private boolean enabled = Boolean.parseBoolean(DEFAULT_ENABLED);
        public boolean isEnabled() { return enabled; }
        public void setEnabled(boolean enabled) { this.enabled = enabled; }
        private Duration duration = duration(DEFAULT_DURATION);
        public Duration getDuration() { return duration; }
        public void setDuration(Duration duration) { this.duration = duration; }
        private Duration refresh = duration(DEFAULT_REFRESH);
        public Duration getRefresh() { return refresh; }
        public void setRefresh(Duration refresh) { this.refresh = refresh; }

        private Reference copy() throws CloneNotSupportedException { return (Reference) clone(); }
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
        check("retained-size", retainedSize + "B", retainedSize >= bytes("1MB"), "must be at least 1MB");
        between("output-retention", outputRetention, 1, 100_000);
        between("max-stack-depth", maxStackDepth, 8, 8192);
        between("max-tree-nodes", maxTreeNodes, 100, 10_000_000);
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
        return this;
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

    /** A duration as a default is written: {@code 10ms}, {@code 30s}, {@code 10m}, {@code 4h}. */
    private static Duration duration(String text) {
        return text.endsWith("ms") ? Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)))
                : Duration.parse("PT" + text.toUpperCase(Locale.ROOT));
    }

    /** A size as a default is written ({@code 64MB}), in bytes. */
    private static long bytes(String text) {
        return Long.parseLong(text.substring(0, text.indexOf("MB"))) * 1024 * 1024;
    }
}
