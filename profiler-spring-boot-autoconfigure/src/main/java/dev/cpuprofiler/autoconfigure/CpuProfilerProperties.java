package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuSourceMode;
import dev.cpuprofiler.EngineChoice;
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
 * Settings of the CPU-triggered profiler, bound from {@code profiler.*}; each field's Javadoc and initial value make the
 * configuration metadata. Defaults and checks are the core's ({@link CpuProfilerOptions}); tests compare the two.
 */
@ConfigurationProperties(prefix = "profiler")
public class CpuProfilerProperties {

    /** Whether the profiler runs at all. When false nothing is created and no thread is started. */
    private boolean enabled = true;

    /** CPU monitoring, trigger and profiling settings. */
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
         * Whether high CPU starts a profile. Monitoring, the endpoint and on-demand profiles keep working when
         * false. Mirrors ApplicationInsightsProfiler_CpuTriggerEnabled.
         */
        private boolean enabled = true;

        /**
         * CPU percentage that the average must exceed (strictly) to start a profile. Mirrors
         * ApplicationInsightsProfiler_CpuThreshold. Must be greater than 0 and at most 100.
         */
        private double threshold = 80;

        /**
         * Quiet time after a CPU-triggered profile ends, from its end. Mirrors
         * ApplicationInsightsProfiler_Cpu_TriggerCooldownInSeconds. Must be zero or positive. A bare number means
         * seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration cooldown = Duration.ofHours(4);

        /**
         * How long a profile records; an on-demand profile may ask for another duration in the same range. Mirrors
         * ApplicationInsightsProfiler_Cpu_ProfilingDurationInSeconds. Must be between 1s and 1h. A bare number
         * means seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration duration = Duration.ofSeconds(30);

        /**
         * How much CPU history the rolling baseline keeps. Mirrors CpuRollingHistorySize. Must be at least
         * profiler.cpu.rolling-history-interval and at most 1d; at most 100000 times rolling-history-interval. A
         * bare number means seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration rollingHistorySize = Duration.ofMinutes(10);

        /**
         * Length of one baseline slot, each holding the true average over it. Mirrors CpuRollingHistoryInterval.
         * Must be at least profiler.cpu.sampling-interval and at most 1h. A bare number means seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration rollingHistoryInterval = Duration.ofSeconds(30);

        /**
         * Span of recent baseline slots the average covers. Mirrors CpuAverageWindow. Must be at least
         * profiler.cpu.rolling-history-interval and at most profiler.cpu.rolling-history-size. A bare number means
         * seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration averageWindow = Duration.ofSeconds(30);

        /** How often CPU usage is sampled. Must be between 10ms and 1m. A bare number means seconds. */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration samplingInterval = Duration.ofSeconds(1);

        /**
         * How often the trigger compares the average with the threshold. Must be between 10ms and 1h. A bare number
         * means seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration pollingInterval = Duration.ofSeconds(5);

        /** Where CPU usage is read. Must be one of auto, cgroup, process. */
        private CpuSourceMode source = CpuSourceMode.AUTO;

        /** Sampling engine that records a profile. Must be one of auto, jfr-cpu-time, async-profiler, jfr-execution. */
        private EngineChoice engine = EngineChoice.AUTO;

        /**
         * Interval between stack samples while a profile records. Must be between 1ms and 1s. A bare number means
         * milliseconds.
         */
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration stackSamplingPeriod = Duration.ofMillis(10);

        /** How many recent profiles stay in memory. Must be between 1 and 1000. */
        private int retainedProfiles = 10;

        /**
         * Most memory the retained profiles may take together, counting the recordings kept on disk for format=jfr;
         * the oldest are dropped first. Must be at least 1MB. A bare number means megabytes.
         */
        @DataSizeUnit(DataUnit.MEGABYTES)
        private DataSize retainedSize = DataSize.ofMegabytes(64);

        /**
         * Directory where each profile is also written (collapsed stacks, HTML flame graph, and the .jfr recording
         * when a JFR engine recorded it), readable by the owner only. Unset: memory only.
         */
        private Path outputDirectory;

        /** How many profiles the output directory keeps; older ones are deleted. Must be between 1 and 100000. */
        private int outputRetention = 20;

        /**
         * Deepest stack kept in a profile's tree; deeper stacks are cut and counted. Every engine records this
         * deep: async-profiler's jstackdepth, and JFR's own stack depth (at most 2048), which the profiler raises
         * when it starts unless JFR was started earlier (then -XX:FlightRecorderOptions:stackdepth=N raises it). So
         * async-profiler keeps up to 8192 frames (within its 1 MB stack walk), the JFR engines up to 2048; a stack
         * cut shorter starts at [truncated] and counts as cut. Must be between 8 and 8192.
         */
        private int maxStackDepth = 512;

        /**
         * Most nodes one profile's tree may hold; samples that would need more are counted as truncated. Must be
         * between 100 and 10000000.
         */
        private int maxTreeNodes = 200_000;

        /**
         * Most endpoints a profile names (its endpoints, most samples first); the rest are folded into [other
         * endpoints]. Must be between 1 and 10000.
         */
        private int maxEndpoints = 100;

        /** The status page links each of the hottest traces here, {traceId} replaced: e.g. a Tempo or Jaeger URL. */
        private String traceUrlTemplate;

        /**
         * Whether the tree's first level is the thread, numbered pool threads folded into one (http-
         * nio-8080-exec-*).
         */
        private boolean groupByThread;

        /**
         * How far back a CPU-triggered profile reaches, so it also shows what raised the average, not only what
         * follows. The look-back records nothing while the application is calm: it arms when the CPU (the last 3 s)
         * rises above lookback-arming-ratio of the threshold, keeps the stack samples of the last this long in a
         * bounded in-memory ring (a low-rate JFR recording) while armed, and disarms, stopping JFR and freeing the
         * ring, once the CPU has stayed below that level for this long. It does not arm during startup-grace nor
         * during the cooldown (until one window before it ends), and steps aside while a profile records. 0 turns
         * it off. Only used while the CPU trigger is on. Must be 0 (off) or between 1s and 10m. A bare number means
         * seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration lookback = Duration.ofSeconds(30);

        /**
         * The share of threshold the CPU (averaged over the last 3 s) must exceed for the look-back to arm: 0.6
         * with threshold 80 arms at 48%. Lower arms earlier and more often; 1 arms only at the threshold itself, so
         * the ring holds less of the rise. Must be greater than 0 and at most 1.
         */
        private double lookbackArmingRatio = 0.6;

        /**
         * Interval between the look-back's stack samples; coarser than stack-sampling-period to keep it cheap. Its
         * samples are weighed to the session's period, so shares compare across both parts. Must be between 10ms
         * and 1s. A bare number means milliseconds.
         */
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration lookbackSamplingPeriod = Duration.ofMillis(50);

        /**
         * Time after the application is ready during which the CPU trigger does not fire and the look-back does not
         * arm: warm-up (JIT compilation, caches filling) burns CPU that is not an incident. CPU monitoring, the
         * endpoint and on-demand profiles work from the start. Must be between 0 and 1h. A bare number means
         * seconds.
         */
        @DurationUnit(ChronoUnit.SECONDS)
        private Duration startupGrace = Duration.ofMinutes(1);

        /**
         * Free space the profiler leaves on every filesystem it writes to: JFR's repository (java.io.tmpdir unless
         * -XX:FlightRecorderOptions:repository says otherwise), its work directory and output-directory. Below it a
         * profile or the look-back does not start, one under way stops early and keeps what it recorded, and no
         * profile file is written; the reason is logged once and shown in the status. JFR stops the whole JVM when
         * its repository cannot be written, so this is what keeps a filling disk from taking the application down
         * with it. Unset: 5% of each filesystem, at least 64MB (what JFR may write at once) and at most 512MB. 0
         * turns the check off. Must be at least 0B. A bare number means bytes.
         */
        @DataSizeUnit(DataUnit.BYTES)
        private DataSize minFreeDiskSpace;

        /** What the engine's JFR recording carries besides its stack samples. */
        @NestedConfigurationProperty
        private final Jfr jfr = new Jfr();

        /**
         * These values on the core's options, which then validate them. A size becomes bytes; an unset
         * min-free-disk-space is {@link CpuProfilerOptions#AUTO_FREE_DISK_SPACE}.
         */
        public CpuProfilerOptions toOptions() {
            CpuProfilerOptions o = new CpuProfilerOptions();
            o.setEnabled(enabled);
            o.setThreshold(threshold);
            o.setCooldown(cooldown);
            o.setDuration(duration);
            o.setRollingHistorySize(rollingHistorySize);
            o.setRollingHistoryInterval(rollingHistoryInterval);
            o.setAverageWindow(averageWindow);
            o.setSamplingInterval(samplingInterval);
            o.setPollingInterval(pollingInterval);
            o.setSource(source);
            o.setEngine(engine);
            o.setStackSamplingPeriod(stackSamplingPeriod);
            o.setRetainedProfiles(retainedProfiles);
            o.setRetainedBytes(retainedSize == null ? 0 : retainedSize.toBytes());
            o.setOutputDirectory(outputDirectory);
            o.setOutputRetention(outputRetention);
            o.setMaxStackDepth(maxStackDepth);
            o.setMaxTreeNodes(maxTreeNodes);
            o.setMaxEndpoints(maxEndpoints);
            o.setTraceUrlTemplate(traceUrlTemplate);
            o.setGroupByThread(groupByThread);
            o.setLookback(lookback);
            o.setLookbackArmingRatio(lookbackArmingRatio);
            o.setLookbackSamplingPeriod(lookbackSamplingPeriod);
            o.setStartupGrace(startupGrace);
            o.setMinFreeDiskSpace(minFreeDiskSpace == null ? CpuProfilerOptions.AUTO_FREE_DISK_SPACE
                    : minFreeDiskSpace.toBytes());
            o.setJfrIncludeSystemInfo(jfr.isIncludeSystemInfo());
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

        public String getTraceUrlTemplate() {
            return traceUrlTemplate;
        }

        public void setTraceUrlTemplate(String traceUrlTemplate) {
            this.traceUrlTemplate = traceUrlTemplate;
        }

        public int getMaxEndpoints() {
            return maxEndpoints;
        }

        public void setMaxEndpoints(int maxEndpoints) {
            this.maxEndpoints = maxEndpoints;
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

        public DataSize getMinFreeDiskSpace() {
            return minFreeDiskSpace;
        }

        public void setMinFreeDiskSpace(DataSize minFreeDiskSpace) {
            this.minFreeDiskSpace = minFreeDiskSpace;
        }

        public Jfr getJfr() {
            return jfr;
        }
    }

    /** Settings under {@code profiler.cpu.jfr}. */
    public static class Jfr {

        /**
         * Sensitive. Whether the engine's JFR recording (format=jfr, the output directory's .jfr, a Pyroscope jfr
         * push) also carries the JVM's system information: its arguments and command line, its system properties,
         * the OS and the native libraries. These hold whatever the application was started with, passwords and
         * tokens included, so they are left out by default. Environment variables are never recorded.
         */
        private boolean includeSystemInfo;

        public boolean isIncludeSystemInfo() {
            return includeSystemInfo;
        }

        public void setIncludeSystemInfo(boolean includeSystemInfo) {
            this.includeSystemInfo = includeSystemInfo;
        }
    }
}
