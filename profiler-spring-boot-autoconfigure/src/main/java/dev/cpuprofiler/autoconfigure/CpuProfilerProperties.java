package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.core.CpuProfilerOptions;
import dev.cpuprofiler.core.CpuSourceMode;
import dev.cpuprofiler.core.EngineChoice;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.convert.DataSizeUnit;
import org.springframework.boot.convert.DurationUnit;
import org.springframework.util.unit.DataSize;
import org.springframework.util.unit.DataUnit;

/**
 * Settings of the CPU-triggered profiler.
 */
@ConfigurationProperties(prefix = "profiler")
public class CpuProfilerProperties {

    /**
     * Whether the profiler runs at all. When false nothing is created and no thread is started.
     */
    private boolean enabled = true;

    /**
     * CPU monitoring, trigger and profiling settings.
     */
    @NestedConfigurationProperty
    private final Cpu cpu = new Cpu();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Cpu getCpu() {
        return cpu;
    }

    /** Settings under {@code profiler.cpu}. */
    public static class Cpu {

        /**
         * Whether high CPU starts a profile (ApplicationInsightsProfiler_CpuTriggerEnabled). Monitoring, the
         * endpoint and on-demand profiles keep working when false.
         */
        private boolean enabled = true;

        /**
         * CPU percentage, greater than 0 and at most 100, that the average must exceed to start a profile
         * (ApplicationInsightsProfiler_CpuThreshold).
         */
        private double threshold = 80;

        /**
         * Quiet time after a CPU-triggered profile ends, from its end
         * (ApplicationInsightsProfiler_Cpu_TriggerCooldownInSeconds). A bare number means seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration cooldown = Duration.ofHours(4);

        /**
         * How long a profile records, 1 s to 1 h (ApplicationInsightsProfiler_Cpu_ProfilingDurationInSeconds).
         * A bare number means seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration duration = Duration.ofSeconds(30);

        /**
         * How often CPU usage is sampled, 10 ms to 1 min. A bare number means seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration samplingInterval = Duration.ofSeconds(1);

        /**
         * How often the average is compared with the threshold. A bare number means seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration pollingInterval = Duration.ofSeconds(5);

        /**
         * How much CPU history the rolling baseline keeps (CpuRollingHistorySize). A bare number means
         * seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration rollingHistorySize = Duration.ofMinutes(10);

        /**
         * Length of one baseline slot, each holding the true average over it (CpuRollingHistoryInterval).
         * At least the sampling interval. A bare number means seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration rollingHistoryInterval = Duration.ofSeconds(30);

        /**
         * Span of recent baseline slots the average covers (CpuAverageWindow), between the rolling-history
         * interval and the rolling-history size. A bare number means seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration averageWindow = Duration.ofSeconds(30);

        /**
         * Where CPU usage is read: 'auto' (the container's cgroup when the process has one of its own, else
         * the process), 'cgroup' or 'process'.
         */
        private CpuSourceMode source = CpuSourceMode.AUTO;

        /**
         * Sampling engine: 'auto' (the first of jfr-cpu-time, async-profiler, jfr-execution that starts),
         * 'jfr-cpu-time' (JDK 25+), 'async-profiler' (needs tools.profiler:async-profiler on the classpath)
         * or 'jfr-execution' (any JDK 17+).
         */
        private EngineChoice engine = EngineChoice.AUTO;

        /**
         * Interval between stack samples while a profile records, 1 ms to 1 s. A bare number means
         * milliseconds.
         */
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration stackSamplingPeriod = Duration.ofMillis(10);

        /**
         * How many recent profiles stay in memory, 1 to 1000.
         */
        private int retainedProfiles = 10;

        /**
         * Most memory the retained profiles may take together; the oldest are dropped first. At least 1MB.
         */
        @DataSizeUnit(DataUnit.MEGABYTES)
        private DataSize retainedSize = DataSize.ofMegabytes(64);

        /**
         * Directory where each profile is also written (collapsed stacks, HTML flame graph, and the .jfr
         * recording when a JFR engine recorded it), readable by the owner only. Unset: memory only.
         */
        private Path outputDirectory;

        /**
         * How many profiles the output directory keeps; older ones are deleted.
         */
        private int outputRetention = 20;

        /**
         * Deepest stack kept in a profile's tree, 8 to 8192; deeper stacks are cut and counted. Every engine records
         * this deep: async-profiler's jstackdepth, and JFR's own stack depth (at most 2048), which the profiler raises
         * when it starts unless JFR was started earlier (then -XX:FlightRecorderOptions:stackdepth=N raises it). So
         * async-profiler keeps up to 8192 frames (within its 1 MB stack walk), the JFR engines up to 2048; a stack cut
         * shorter starts at [truncated] and counts as cut.
         */
        private int maxStackDepth = 512;

        /**
         * Most nodes one profile's tree may hold; samples that would need more are counted as truncated.
         */
        private int maxTreeNodes = 200_000;

        /**
         * Whether the tree's first level is the thread, numbered pool threads folded into one
         * (http-nio-8080-exec-*).
         */
        private boolean groupByThread = false;

        /**
         * How far back a CPU-triggered profile reaches: while monitoring, stack samples of the last this long are
         * kept (a low-rate JFR execution-sample recording into a bounded in-memory ring), so the profile also shows
         * the burst that raised the average, not only what follows. 0 (the default) is off; otherwise 1s to 10m. A
         * bare number means seconds. Costs measured on 2 CPUs: about 0.3% of one core idle and 2% of throughput when
         * busy, plus the 25-50 MB of memory JFR takes once it runs. It pauses while a profile records and during the cooldown
         * (until one window before it ends). Only used while the CPU trigger is on.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration lookback = Duration.ZERO;

        /**
         * Interval between the look-back's stack samples, 10 ms to 1 s; coarser than stack-sampling-period to keep
         * it cheap. Its samples are weighed to the session's period, so shares compare across both parts. A bare
         * number means milliseconds.
         */
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration lookbackSamplingPeriod = Duration.ofMillis(20);

        /**
         * Free space the profiler leaves on every filesystem it writes to: JFR's repository (java.io.tmpdir unless
         * -XX:FlightRecorderOptions:repository says otherwise), its work directory and output-directory. Below it a
         * profile or the look-back does not start, one under way stops early and keeps what it recorded, and no
         * profile file is written; the reason is logged once and shown in the status. JFR stops the whole JVM when
         * its repository cannot be written, so this is what keeps a filling disk from taking the application down
         * with it. Unset: 5% of each filesystem, at least 64MB (what JFR may write at once) and at most 512MB. 0
         * turns the check off.
         */
        private DataSize minFreeDiskSpace;

        /** Copies these values into the core's options. */
        public CpuProfilerOptions toOptions() {
            CpuProfilerOptions o = new CpuProfilerOptions();
            o.setEnabled(enabled);
            o.setThreshold(threshold);
            o.setCooldown(cooldown);
            o.setDuration(duration);
            o.setSamplingInterval(samplingInterval);
            o.setPollingInterval(pollingInterval);
            o.setRollingHistorySize(rollingHistorySize);
            o.setRollingHistoryInterval(rollingHistoryInterval);
            o.setAverageWindow(averageWindow);
            o.setSource(source);
            o.setEngine(engine);
            o.setStackSamplingPeriod(stackSamplingPeriod);
            o.setRetainedProfiles(retainedProfiles);
            o.setRetainedBytes(retainedSize == null ? -1 : retainedSize.toBytes());
            o.setOutputDirectory(outputDirectory);
            o.setOutputRetention(outputRetention);
            o.setMaxStackDepth(maxStackDepth);
            o.setMaxTreeNodes(maxTreeNodes);
            o.setGroupByThread(groupByThread);
            o.setLookback(lookback);
            o.setLookbackSamplingPeriod(lookbackSamplingPeriod);
            o.setMinFreeDiskSpace(minFreeDiskSpace == null ? CpuProfilerOptions.AUTO_FREE_DISK_SPACE
                    : minFreeDiskSpace.toBytes());
            return o;
        }

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

        public DataSize getRetainedSize() {
            return retainedSize;
        }

        public void setRetainedSize(DataSize retainedSize) {
            this.retainedSize = retainedSize;
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

        public boolean isGroupByThread() {
            return groupByThread;
        }

        public void setGroupByThread(boolean groupByThread) {
            this.groupByThread = groupByThread;
        }

        public Duration getLookback() {
            return lookback;
        }

        public void setLookback(Duration lookback) {
            this.lookback = lookback;
        }

        public Duration getLookbackSamplingPeriod() {
            return lookbackSamplingPeriod;
        }

        public void setLookbackSamplingPeriod(Duration lookbackSamplingPeriod) {
            this.lookbackSamplingPeriod = lookbackSamplingPeriod;
        }

        public DataSize getMinFreeDiskSpace() {
            return minFreeDiskSpace;
        }

        public void setMinFreeDiskSpace(DataSize minFreeDiskSpace) {
            this.minFreeDiskSpace = minFreeDiskSpace;
        }
    }
}
