package dev.cpuprofiler;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Every {@code profiler.cpu.*} setting as a JavaBean. The settings, their defaults (which mirror the original
 * CPU-triggered profiler) and ranges are declared in {@link CpuProfilerSettings}; {@link #validate()} checks them,
 * each message naming the property.
 */
public final class CpuProfilerOptions {

    public static final String PREFIX = "profiler.cpu.";
    /** {@code min-free-disk-space} unset: 5% of each filesystem, at least 64 MB and at most 512 MB. */
    public static final long AUTO_FREE_DISK_SPACE = -1;

    private boolean enabled;
    private double threshold;
    private Duration cooldown;
    private Duration duration;
    private Duration samplingInterval;
    private Duration pollingInterval;
    private Duration rollingHistorySize;
    private Duration rollingHistoryInterval;
    private Duration averageWindow;
    private CpuSourceMode source;
    private EngineChoice engine;
    private Duration stackSamplingPeriod;
    private int retainedProfiles;
    private long retainedBytes;
    private Path outputDirectory;
    private int outputRetention;
    private int maxStackDepth;
    private int maxTreeNodes;
    private boolean groupByThread;
    private Duration lookback;
    private double lookbackArmingRatio;
    private Duration lookbackSamplingPeriod;
    private Duration startupGrace;
    private long minFreeDiskSpace;
    private boolean jfrIncludeSystemInfo;

    /** Options with every default of {@link CpuProfilerSettings}. */
    public CpuProfilerOptions() {
        for (Setting<?> setting : CpuProfilerSettings.all()) {
            setting.reset(this);
        }
    }

    /** An independent copy, so a running profiler never sees later changes. */
    public CpuProfilerOptions copy() {
        CpuProfilerOptions c = new CpuProfilerOptions();
        for (Setting<?> setting : CpuProfilerSettings.all()) {
            setting.copy(this, c);
        }
        return c;
    }

    /**
     * Checks every setting against the values {@link CpuProfilerSettings} allows.
     *
     * @throws InvalidOptionException naming the first property out of range
     */
    public CpuProfilerOptions validate() {
        for (Setting<?> setting : CpuProfilerSettings.all()) {
            setting.check(this);
        }
        return this;
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
     * Whether the engine's recording ({@code format=jfr}, the output directory's {@code .jfr}, a {@code jfr} push)
     * also carries the JVM's system information: its arguments and command line, its system properties, the OS and
     * the native libraries. Off by default, since those hold whatever secrets the application was started with.
     */
    public boolean isJfrIncludeSystemInfo() {
        return jfrIncludeSystemInfo;
    }

    public void setJfrIncludeSystemInfo(boolean jfrIncludeSystemInfo) {
        this.jfrIncludeSystemInfo = jfrIncludeSystemInfo;
    }

    /**
     * How far back a CPU-triggered profile reaches before its session starts (30 s by default); zero turns look-back
     * off. Only used while the CPU trigger is on.
     */
    public Duration getLookback() {
        return lookback;
    }

    public void setLookback(Duration lookback) {
        this.lookback = lookback;
    }

    /** The share of the threshold the recent CPU must exceed for the look-back to arm (0 < x <= 1). */
    public double getLookbackArmingRatio() {
        return lookbackArmingRatio;
    }

    public void setLookbackArmingRatio(double lookbackArmingRatio) {
        this.lookbackArmingRatio = lookbackArmingRatio;
    }

    /** The period of look-back's own stack sampler, coarser than a session's to stay cheap. */
    public Duration getLookbackSamplingPeriod() {
        return lookbackSamplingPeriod;
    }

    public void setLookbackSamplingPeriod(Duration lookbackSamplingPeriod) {
        this.lookbackSamplingPeriod = lookbackSamplingPeriod;
    }

    /** Time after start during which the CPU trigger does not fire and the look-back does not arm. */
    public Duration getStartupGrace() {
        return startupGrace;
    }

    public void setStartupGrace(Duration startupGrace) {
        this.startupGrace = startupGrace;
    }

    /** Bytes kept free on every filesystem the profiler writes to, or {@link #AUTO_FREE_DISK_SPACE}. */
    public long getMinFreeDiskSpace() {
        return minFreeDiskSpace;
    }

    public void setMinFreeDiskSpace(long minFreeDiskSpace) {
        this.minFreeDiskSpace = minFreeDiskSpace;
    }
}
