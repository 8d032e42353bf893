package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuSourceMode;
import dev.cpuprofiler.EngineChoice;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DataSizeUnit;
import org.springframework.boot.convert.DurationUnit;
import org.springframework.util.unit.DataSize;
import org.springframework.util.unit.DataUnit;

/**
 * Settings of the CPU-triggered profiler, bound from {@code profiler.*} by constructor: each component's {@code @param}
 * and {@code @DefaultValue} make the configuration metadata. Defaults and checks are the core's
 * ({@link CpuProfilerOptions}); tests compare the two.
 *
 * @param enabled Whether the profiler runs at all. When false nothing is created and no thread is started.
 * @param cpu CPU monitoring, trigger and profiling settings.
 */
@ConfigurationProperties(prefix = "profiler")
public record CpuProfilerProperties(@DefaultValue("true") boolean enabled, @DefaultValue Cpu cpu) {

    /**
     * Settings under {@code profiler.cpu}.
     *
     * @param enabled Whether high CPU starts a profile. Monitoring, the endpoint and on-demand profiles keep
     *     working when false. Mirrors ApplicationInsightsProfiler_CpuTriggerEnabled.
     * @param threshold CPU percentage that the average must exceed (strictly) to start a profile. Mirrors
     *     ApplicationInsightsProfiler_CpuThreshold. Must be greater than 0 and at most 100.
     * @param cooldown Quiet time after a CPU-triggered profile ends, from its end. Mirrors
     *     ApplicationInsightsProfiler_Cpu_TriggerCooldownInSeconds. Must be zero or positive. A bare number means
     *     seconds.
     * @param duration How long a profile records; an on-demand profile may ask for another duration in the same
     *     range. Mirrors ApplicationInsightsProfiler_Cpu_ProfilingDurationInSeconds. Must be between 1s and 1h. A bare
     *     number means seconds.
     * @param rollingHistorySize How much CPU history the rolling baseline keeps. Mirrors CpuRollingHistorySize.
     *     Must be at least profiler.cpu.rolling-history-interval and at most 1d; at most 100000 times
     *     rolling-history-interval. A bare number means seconds.
     * @param rollingHistoryInterval Length of one baseline slot, each holding the true average over it. Mirrors
     *     CpuRollingHistoryInterval. Must be at least profiler.cpu.sampling-interval and at most 1h. A bare number
     *     means seconds.
     * @param averageWindow Span of recent baseline slots the average covers. Mirrors CpuAverageWindow. Must be at
     *     least profiler.cpu.rolling-history-interval and at most profiler.cpu.rolling-history-size. A bare number
     *     means seconds.
     * @param samplingInterval How often CPU usage is sampled. Must be between 10ms and 1m. A bare number means
     *     seconds.
     * @param pollingInterval How often the trigger compares the average with the threshold. Must be between 10ms
     *     and 1h. A bare number means seconds.
     * @param source Where CPU usage is read. Must be one of auto, cgroup, process.
     * @param engine Sampling engine that records a profile. Must be one of auto, jfr-cpu-time, async-profiler,
     *     jfr-execution.
     * @param stackSamplingPeriod Interval between stack samples while a profile records. Must be between 1ms and
     *     1s. A bare number means milliseconds.
     * @param retainedProfiles How many recent profiles of each kind stay in memory: CPU-triggered and saturation
     *     profiles, and on-demand ones, apart, so on-demand profiles never push out an incident's. Must be between 1
     *     and 1000.
     * @param retainedSize Most memory the retained profiles may take together, counting the recordings kept on disk
     *     for format=jfr; on-demand profiles are dropped first, then the oldest. Must be at least 1MB. A bare number
     *     means megabytes.
     * @param outputDirectory Directory where each profile is also written (collapsed stacks, HTML flame graph, and
     *     the .jfr recording when a JFR engine recorded it), readable by the owner only. An existing directory must be
     *     owned by the user the application runs as and writable by it alone, or start-up fails. Instances may share
     *     it: each deletes only the files it wrote. Unset: memory only.
     * @param outputRetention How many profiles of each kind (as retained-profiles) this instance keeps in the output
     *     directory; older ones it wrote are deleted. Must be between 1 and 100000.
     * @param maxStackDepth Deepest stack kept in a profile's tree; deeper stacks are cut and counted. Every engine
     *     records this deep: async-profiler's jstackdepth, and JFR's own stack depth (at most 2048), which the profiler
     *     raises when it starts unless JFR was started earlier (then -XX:FlightRecorderOptions:stackdepth=N raises it).
     *     So async-profiler keeps up to 8192 frames (within its 1 MB stack walk), the JFR engines up to 2048; a stack
     *     cut shorter starts at [truncated] and counts as cut. Must be between 8 and 8192.
     * @param maxTreeNodes Most nodes one profile's tree may hold; samples that would need more are counted as
     *     truncated. Must be between 100 and 10000000.
     * @param maxEndpoints Most endpoints a profile names (its endpoints, most samples first); the rest are folded
     *     into [other endpoints]. Must be between 1 and 10000.
     * @param traceUrlTemplate The status page links each of the hottest traces here, {traceId} replaced: e.g. a
     *     Tempo or Jaeger URL.
     * @param groupByThread Whether the tree's first level is the thread, numbered pool threads folded into one
     *     (http-nio-8080-exec-*).
     * @param lookback How far back a CPU-triggered profile reaches, so it also shows what raised the average, not
     *     only what follows. The look-back records nothing while the application is calm: it arms when the CPU (the
     *     last 3 s) rises above lookback-arming-ratio of the threshold, keeps the stack samples of the last this long
     *     in a bounded in-memory ring (a low-rate JFR recording) while armed, and disarms, stopping JFR and freeing the
     *     ring, once the CPU has stayed below that level for this long. It does not arm during startup-grace nor during
     *     the cooldown (until one window before it ends), and steps aside while a profile records. 0 turns it off. Only
     *     used while the CPU trigger is on. Must be 0 (off) or between 1s and 10m. A bare number means seconds.
     * @param lookbackArmingRatio The share of threshold the CPU (averaged over the last 3 s) must exceed for the
     *     look-back to arm: 0.6 with threshold 80 arms at 48%. Lower arms earlier and more often; 1 arms only at the
     *     threshold itself, so the ring holds less of the rise. Must be greater than 0 and at most 1.
     * @param lookbackSamplingPeriod Interval between the look-back's stack samples; coarser than
     *     stack-sampling-period to keep it cheap. Its samples are weighed to the session's period, so shares compare
     *     across both parts. Must be between 10ms and 1s. A bare number means milliseconds.
     * @param startupGrace Time after the application is ready during which the CPU trigger does not fire and the
     *     look-back does not arm: warm-up (JIT compilation, caches filling) burns CPU that is not an incident. CPU
     *     monitoring, the endpoint and on-demand profiles work from the start. Must be between 0 and 1h. A bare number
     *     means seconds.
     * @param minFreeDiskSpace Free space the profiler leaves on every filesystem it writes to: JFR's repository
     *     (java.io.tmpdir unless -XX:FlightRecorderOptions:repository says otherwise), its work directory and
     *     output-directory. Below it a profile or the look-back does not start, one under way stops early and keeps
     *     what it recorded, and no profile file is written; the reason is logged once and shown in the status. JFR
     *     stops the whole JVM when its repository cannot be written, so this is what keeps a filling disk from taking
     *     the application down with it. Unset: 5% of each filesystem, at least 64MB (what JFR may write at once) and at
     *     most 512MB. 0 turns the check off. Must be at least 0B. A bare number means bytes.
     * @param jfr What the engine's JFR recording carries besides its stack samples.
     * @param saturation The saturation trigger: one thread pinned at a core while the process's CPU% looks
     *     harmless.
     */
    public record Cpu(
            @DefaultValue("true") boolean enabled, @DefaultValue("80") double threshold,
            @DefaultValue("4h") @DurationUnit(ChronoUnit.SECONDS) Duration cooldown,
            @DefaultValue("30s") @DurationUnit(ChronoUnit.SECONDS) Duration duration,
            @DefaultValue("10m") @DurationUnit(ChronoUnit.SECONDS) Duration rollingHistorySize,
            @DefaultValue("30s") @DurationUnit(ChronoUnit.SECONDS) Duration rollingHistoryInterval,
            @DefaultValue("30s") @DurationUnit(ChronoUnit.SECONDS) Duration averageWindow,
            @DefaultValue("1s") @DurationUnit(ChronoUnit.SECONDS) Duration samplingInterval,
            @DefaultValue("5s") @DurationUnit(ChronoUnit.SECONDS) Duration pollingInterval,
            @DefaultValue("auto") CpuSourceMode source, @DefaultValue("auto") EngineChoice engine,
            @DefaultValue("10ms") @DurationUnit(ChronoUnit.MILLIS) Duration stackSamplingPeriod,
            @DefaultValue("10") int retainedProfiles,
            @DefaultValue("64MB") @DataSizeUnit(DataUnit.MEGABYTES) DataSize retainedSize, Path outputDirectory,
            @DefaultValue("20") int outputRetention, @DefaultValue("512") int maxStackDepth,
            @DefaultValue("200000") int maxTreeNodes, @DefaultValue("100") int maxEndpoints, String traceUrlTemplate,
            @DefaultValue("false") boolean groupByThread,
            @DefaultValue("30s") @DurationUnit(ChronoUnit.SECONDS) Duration lookback,
            @DefaultValue("0.6") double lookbackArmingRatio,
            @DefaultValue("50ms") @DurationUnit(ChronoUnit.MILLIS) Duration lookbackSamplingPeriod,
            @DefaultValue("1m") @DurationUnit(ChronoUnit.SECONDS) Duration startupGrace,
            @DataSizeUnit(DataUnit.BYTES) DataSize minFreeDiskSpace, @DefaultValue Jfr jfr,
            @DefaultValue Saturation saturation) {

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
            o.setRetainedSize(retainedSize == null ? 0 : retainedSize.toBytes());
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
            o.getJfr().setIncludeSystemInfo(jfr.includeSystemInfo());
            o.getSaturation().setEnabled(saturation.enabled());
            o.getSaturation().setThreshold(saturation.threshold());
            o.getSaturation().setWindow(saturation.window());
            return o;
        }
    }

    /**
     * Settings under {@code profiler.cpu.jfr}.
     *
     * @param includeSystemInfo Sensitive. Whether the engine's JFR recording (format=jfr, the output directory's
     *     .jfr, a Pyroscope jfr push) also carries the JVM's system information: its arguments and command line, its
     *     system properties, the OS and the native libraries. These hold whatever the application was started with,
     *     passwords and tokens included, so they are left out by default. Environment variables are never recorded.
     */
    public record Jfr(@DefaultValue("false") boolean includeSystemInfo) {
    }

    /**
     * Settings under {@code profiler.cpu.saturation}: one thread pinned at a core while the process's CPU% looks
     * harmless.
     *
     * @param enabled Whether one application thread pinned at a core starts a profile (trigger SATURATION), even
     *     while the process's CPU% stays under the threshold. Off with profiler.cpu.enabled=false too.
     * @param threshold Percent of ONE core that a thread's CPU, averaged over the window, must reach. Must be between
     *     50 and 100.
     * @param window Span a thread's CPU is averaged over; a thread younger than it does not count. Unset: 1m, or
     *     profiler.cpu.rolling-history-size when that is shorter. Must be at least profiler.cpu.sampling-interval and
     *     at most profiler.cpu.rolling-history-size. A bare number means seconds.
     */
    public record Saturation(@DefaultValue("true") boolean enabled, @DefaultValue("90") double threshold,
            @DurationUnit(ChronoUnit.SECONDS) Duration window) {
    }
}
