package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerSettings;
import dev.cpuprofiler.Setting;
import dev.cpuprofiler.CpuSourceMode;
import dev.cpuprofiler.EngineChoice;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.convert.DataSizeUnit;
import org.springframework.boot.convert.DurationUnit;
import org.springframework.util.unit.DataSize;
import org.springframework.util.unit.DataUnit;

/**
 * Settings of the CPU-triggered profiler. The {@code profiler.cpu.*} settings are declared, with their defaults,
 * ranges and descriptions, in {@link CpuProfilerSettings}; this class binds them.
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

    /**
     * Settings under {@code profiler.cpu}: the binding of {@link CpuProfilerSettings}, where each setting's default,
     * range and description are declared (the build writes them into the configuration metadata). A field here has
     * the setting's name in camel case; {@link #toOptions()} copies them by that name.
     */
    public static class Cpu {

        private boolean enabled = CpuProfilerSettings.ENABLED.defaultValue();

        private double threshold = CpuProfilerSettings.THRESHOLD.defaultValue();

        @DurationUnit(ChronoUnit.SECONDS)
        private Duration cooldown = CpuProfilerSettings.COOLDOWN.defaultValue();

        @DurationUnit(ChronoUnit.SECONDS)
        private Duration duration = CpuProfilerSettings.DURATION.defaultValue();

        @DurationUnit(ChronoUnit.SECONDS)
        private Duration samplingInterval = CpuProfilerSettings.SAMPLING_INTERVAL.defaultValue();

        @DurationUnit(ChronoUnit.SECONDS)
        private Duration pollingInterval = CpuProfilerSettings.POLLING_INTERVAL.defaultValue();

        @DurationUnit(ChronoUnit.SECONDS)
        private Duration rollingHistorySize = CpuProfilerSettings.ROLLING_HISTORY_SIZE.defaultValue();

        @DurationUnit(ChronoUnit.SECONDS)
        private Duration rollingHistoryInterval = CpuProfilerSettings.ROLLING_HISTORY_INTERVAL.defaultValue();

        @DurationUnit(ChronoUnit.SECONDS)
        private Duration averageWindow = CpuProfilerSettings.AVERAGE_WINDOW.defaultValue();

        private CpuSourceMode source = CpuProfilerSettings.SOURCE.defaultValue();

        private EngineChoice engine = CpuProfilerSettings.ENGINE.defaultValue();

        @DurationUnit(ChronoUnit.MILLIS)
        private Duration stackSamplingPeriod = CpuProfilerSettings.STACK_SAMPLING_PERIOD.defaultValue();

        private int retainedProfiles = CpuProfilerSettings.RETAINED_PROFILES.defaultValue();

        @DataSizeUnit(DataUnit.MEGABYTES)
        private DataSize retainedSize = DataSize.ofBytes(CpuProfilerSettings.RETAINED_SIZE.defaultValue());

        private Path outputDirectory = CpuProfilerSettings.OUTPUT_DIRECTORY.defaultValue();

        private int outputRetention = CpuProfilerSettings.OUTPUT_RETENTION.defaultValue();

        private int maxStackDepth = CpuProfilerSettings.MAX_STACK_DEPTH.defaultValue();

        private int maxTreeNodes = CpuProfilerSettings.MAX_TREE_NODES.defaultValue();

        private boolean groupByThread = CpuProfilerSettings.GROUP_BY_THREAD.defaultValue();

        @DurationUnit(ChronoUnit.SECONDS)
        private Duration lookback = CpuProfilerSettings.LOOKBACK.defaultValue();

        private double lookbackArmingRatio = CpuProfilerSettings.LOOKBACK_ARMING_RATIO.defaultValue();

        @DurationUnit(ChronoUnit.MILLIS)
        private Duration lookbackSamplingPeriod = CpuProfilerSettings.LOOKBACK_SAMPLING_PERIOD.defaultValue();

        @DurationUnit(ChronoUnit.SECONDS)
        private Duration startupGrace = CpuProfilerSettings.STARTUP_GRACE.defaultValue();

        /** Unset: {@link CpuProfilerOptions#AUTO_FREE_DISK_SPACE}. */
        private DataSize minFreeDiskSpace;

        /**
         * What the engine's JFR recording carries besides its stack samples.
         */
        @NestedConfigurationProperty
        private final Jfr jfr = new Jfr();

        /**
         * Copies these values into the core's options, setting by setting of {@link CpuProfilerSettings}, each read
         * from the property of the same name. A size becomes bytes; an unset size is
         * {@link CpuProfilerOptions#AUTO_FREE_DISK_SPACE}.
         */
        public CpuProfilerOptions toOptions() {
            CpuProfilerOptions options = new CpuProfilerOptions();
            BeanWrapper bound = new BeanWrapperImpl(this);
            for (Setting<?> setting : CpuProfilerSettings.all()) {
                Object value = bound.getPropertyValue(camelCase(setting.key()));
                if (setting.type() == Long.class && (value == null || value instanceof DataSize)) {
                    value = value == null ? CpuProfilerOptions.AUTO_FREE_DISK_SPACE : ((DataSize) value).toBytes();
                }
                setting.setChecked(options, value);
            }
            return options;
        }

        private static String camelCase(String key) {
            StringBuilder name = new StringBuilder();
            for (String part : key.split("-")) {
                name.append(name.isEmpty() ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
            }
            return name.toString();
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

        public double getLookbackArmingRatio() {
            return lookbackArmingRatio;
        }

        public void setLookbackArmingRatio(double lookbackArmingRatio) {
            this.lookbackArmingRatio = lookbackArmingRatio;
        }

        public Duration getStartupGrace() {
            return startupGrace;
        }

        public void setStartupGrace(Duration startupGrace) {
            this.startupGrace = startupGrace;
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

        public Jfr getJfr() {
            return jfr;
        }
    }

    /** Settings under {@code profiler.cpu.jfr}. */
    public static class Jfr {

        private boolean includeSystemInfo = CpuProfilerSettings.JFR_INCLUDE_SYSTEM_INFO.defaultValue();

        public boolean isIncludeSystemInfo() {
            return includeSystemInfo;
        }

        public void setIncludeSystemInfo(boolean includeSystemInfo) {
            this.includeSystemInfo = includeSystemInfo;
        }
    }
}
