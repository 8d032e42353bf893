package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuSourceMode;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.autoconfigure.export.ExportProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DataSizeUnit;
import org.springframework.boot.convert.DurationUnit;
import org.springframework.util.unit.DataSize;
import org.springframework.util.unit.DataUnit;

/**
 * Settings of the CPU-triggered profiler, bound from {@code profiler.*} by constructor: what each one means, written
 * once, in its {@code @param}, from which the configuration metadata is made, with its default as properties write
 * it ({@code @DefaultValue}: the core's {@link CpuProfilerOptions} holds the same, typed, which SettingsMetadataTest
 * checks). {@link #toOptions()} copies the values onto the core's options, whose {@link
 * CpuProfilerOptions#validate()} checks them.
 *
 * @param enabled Whether the profiler runs at all. When false nothing is created and no thread is started.
 * @param cpu CPU monitoring, trigger and profiling settings.
 * @param latency The latency trigger: a profile of where slow requests spent their time.
 */
@ConfigurationProperties(prefix = "profiler")
public record CpuProfilerProperties(@DefaultValue("true") boolean enabled, @DefaultValue Cpu cpu,
        @DefaultValue Latency latency) {

    /**
     * These values on the core's options, to be checked there ({@link RecordsOntoBean}); what the core has no option
     * for ({@code export}) stays here.
     */
    public CpuProfilerOptions toOptions() {
        CpuProfilerOptions options = new CpuProfilerOptions();
        RecordsOntoBean.copy(cpu, options);
        RecordsOntoBean.copy(latency, options.getLatency());
        return options;
    }

    /**
     * Settings under {@code profiler.latency}: when an endpoint's requests turn slow, a profile (trigger LATENCY) that
     * says per endpoint whether the time went to CPU or to waiting, and on what.
     *
     * @param enabled Whether slow requests start a profile by themselves. Each request's duration is counted by
     *     endpoint either way (the starter observes requests already); off, nothing is judged.
     * @param threshold How long a request must take to count as slow. Where the reference of normal knows the
     *     endpoint, a request must also take normal-factor times its 95th percentile then, so that an endpoint that is
     *     always slow is no incident. A bare number means milliseconds.
     * @param slowShare Share (0..1) of an endpoint's requests in the window that must be slow.
     * @param minRequests Fewest requests an endpoint must have ended in the window to be judged.
     * @param window Span the requests are judged over, in whole 5-s slots. A bare number means seconds.
     * @param normalFactor How many times the endpoint's 95th percentile in the reference of normal a request must
     *     take, besides threshold, to count as slow.
     * @param cooldown Quiet time after a LATENCY profile ends, from its end; the CPU trigger keeps its own. A bare
     *     number means seconds.
     * @param waitThreshold Shortest wait (a lock, I/O, a sleep, a pool) a LATENCY profile records with its stack:
     *     shorter ones are not seen, and cost nothing. A bare number means milliseconds.
     */
    public record Latency(@DefaultValue("true") boolean enabled,
            @DefaultValue("200ms") @DurationUnit(ChronoUnit.MILLIS) Duration threshold,
            @DefaultValue("0.5") double slowShare, @DefaultValue("20") int minRequests,
            @DefaultValue("30s") @DurationUnit(ChronoUnit.SECONDS) Duration window,
            @DefaultValue("2") double normalFactor,
            @DefaultValue("1h") @DurationUnit(ChronoUnit.SECONDS) Duration cooldown,
            @DefaultValue("1ms") @DurationUnit(ChronoUnit.MILLIS) Duration waitThreshold) {
    }

    /**
     * Settings under {@code profiler.cpu}.
     *
     * @param enabled Whether high CPU starts a profile. Monitoring, the endpoint and on-demand profiles keep
     *     working when false. Mirrors ApplicationInsightsProfiler_CpuTriggerEnabled.
     * @param threshold CPU percentage that the average must exceed (strictly) to start a profile. Mirrors
     *     ApplicationInsightsProfiler_CpuThreshold.
     * @param cooldown Quiet time after a CPU-triggered profile ends, from its end. Mirrors
     *     ApplicationInsightsProfiler_Cpu_TriggerCooldownInSeconds. A bare number means seconds.
     * @param duration How long a profile records; an on-demand profile may ask for another, within the same bounds.
     *     Mirrors ApplicationInsightsProfiler_Cpu_ProfilingDurationInSeconds. A bare number means seconds.
     * @param rollingHistorySize How much CPU history the rolling baseline keeps. Mirrors CpuRollingHistorySize. A bare
     *     number means seconds.
     * @param rollingHistoryInterval Length of one baseline slot, each holding the true average over it. Mirrors
     *     CpuRollingHistoryInterval. A bare number means seconds.
     * @param averageWindow Span of recent baseline slots the average covers. Mirrors CpuAverageWindow. A bare number
     *     means seconds.
     * @param samplingInterval How often CPU usage is sampled. A bare number means seconds.
     * @param pollingInterval How often the trigger compares the average with the threshold. A bare number means
     *     seconds.
     * @param source Where CPU usage is read.
     * @param engine Sampling engine that records a profile.
     * @param stackSamplingPeriod Interval between stack samples while a profile records. A bare number means
     *     milliseconds.
     * @param retainedProfiles How many recent profiles of each kind stay in memory: CPU-triggered and saturation
     *     profiles, and on-demand ones, apart, so on-demand profiles never push out an incident's.
     * @param retainedSize Most memory the retained profiles may take together, counting the recordings kept on disk
     *     for format=jfr; on-demand profiles are dropped first, then the oldest. A bare number means megabytes.
     * @param outputDirectory Directory where each profile is also written (collapsed stacks, HTML flame graph, .jfr),
     *     readable by the owner only; an existing one must be owned by the application's user and writable by it
     *     alone. Instances may share it: each deletes only its own files. Unset: memory only.
     * @param outputRetention How many profiles of each kind (as retained-profiles) this instance keeps in the output
     *     directory; older ones it wrote are deleted.
     * @param maxStackDepth Deepest stack kept in a profile's tree, by every engine: async-profiler up to 8192 frames,
     *     JFR up to 2048 (raised at start unless JFR started earlier: -XX:FlightRecorderOptions:stackdepth=N then). A
     *     deeper stack is cut, starts at [truncated] and is counted.
     * @param maxTreeNodes Most nodes one profile's tree may hold; samples that would need more are counted as
     *     truncated.
     * @param maxEndpoints Most endpoints a profile names (its endpoints, most samples first); the rest are folded
     *     into [other endpoints].
     * @param traceUrlTemplate The status page links each of the hottest traces here, {traceId} replaced: e.g. a
     *     Tempo or Jaeger URL.
     * @param groupByThread Whether the tree's first level is the thread, numbered pool threads folded into one
     *     (http-nio-8080-exec-*).
     * @param lookback How far back a CPU-triggered profile reaches, so it also shows what raised the average. Nothing
     *     is recorded while the CPU is calm: when it rises (above its normal and lookback-arming-ratio of the
     *     threshold) the stack samples of the last this long are kept in a bounded in-memory ring, until the CPU has
     *     stayed below that level this long. 0 turns it off. Only with the CPU trigger on. A bare number means seconds.
     * @param lookbackArmingRatio The share of threshold the CPU (averaged over the last 3 s) must exceed for the
     *     look-back to arm: 0.6 with threshold 80 arms at 48%. Lower arms earlier and more often; 1 arms only at the
     *     threshold itself, so the ring holds less of the rise.
     * @param lookbackSamplingPeriod Interval between the look-back's stack samples; coarser than
     *     stack-sampling-period to keep it cheap. Its samples are weighed to the session's period, so shares compare
     *     across both parts. A bare number means milliseconds.
     * @param startupGrace Time after the application is ready during which the CPU trigger does not fire and the
     *     look-back does not arm: warm-up (JIT compilation, caches filling) burns CPU that is not an incident. CPU
     *     monitoring, the endpoint and on-demand profiles work from the start. A bare number means seconds.
     * @param minFreeDiskSpace Free space the profiler leaves on every filesystem it writes to (JFR's repository, its
     *     work directory, output-directory): below it nothing starts, a profile under way stops early keeping what it
     *     recorded, and no file is written, so a filling disk never stops JFR and the JVM with it. Unset: 5% of each
     *     filesystem, between 64MB and 512MB. 0 turns the check off. A bare number means bytes.
     * @param jfr What the engine's JFR recording carries besides its stack samples.
     * @param saturation The saturation trigger: one thread pinned at a core while the process's CPU% looks
     *     harmless.
     * @param reference The reference of normal: a short profile the profiler records by itself while the application
     *     is calm, which every later profile is compared with.
     * @param export Where each stored profile is pushed: Pyroscope, OTLP.
     */
    public record Cpu(@DefaultValue("true") boolean enabled, @DefaultValue("80") double threshold,
            @DefaultValue("4h") @DurationUnit(ChronoUnit.SECONDS) Duration cooldown,
            @DefaultValue("30s") @DurationUnit(ChronoUnit.SECONDS) Duration duration,
            @DefaultValue("10m") @DurationUnit(ChronoUnit.SECONDS) Duration rollingHistorySize,
            @DefaultValue("30s") @DurationUnit(ChronoUnit.SECONDS)
            Duration rollingHistoryInterval,
            @DefaultValue("30s") @DurationUnit(ChronoUnit.SECONDS) Duration averageWindow,
            @DefaultValue("1s") @DurationUnit(ChronoUnit.SECONDS) Duration samplingInterval,
            @DefaultValue("5s") @DurationUnit(ChronoUnit.SECONDS) Duration pollingInterval,
            @DefaultValue("auto") CpuSourceMode source, @DefaultValue("auto") EngineChoice engine,
            @DefaultValue("10ms") @DurationUnit(ChronoUnit.MILLIS) Duration stackSamplingPeriod,
            @DefaultValue("10") int retainedProfiles,
            @DefaultValue("32MB") @DataSizeUnit(DataUnit.MEGABYTES) DataSize retainedSize,
            Path outputDirectory, @DefaultValue("20") int outputRetention,
            @DefaultValue("512") int maxStackDepth,
            @DefaultValue("200000") int maxTreeNodes,
            @DefaultValue("100") int maxEndpoints, String traceUrlTemplate,
            @DefaultValue("false") boolean groupByThread,
            @DefaultValue("30s") @DurationUnit(ChronoUnit.SECONDS) Duration lookback,
            @DefaultValue("0.6") double lookbackArmingRatio,
            @DefaultValue("50ms") @DurationUnit(ChronoUnit.MILLIS)
            Duration lookbackSamplingPeriod,
            @DefaultValue("1m") @DurationUnit(ChronoUnit.SECONDS) Duration startupGrace,
            @DataSizeUnit(DataUnit.BYTES) DataSize minFreeDiskSpace, @DefaultValue Jfr jfr,
            @DefaultValue Saturation saturation, @DefaultValue Reference reference,
            @DefaultValue @NestedConfigurationProperty ExportProperties export) {
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
     * @param threshold Percent of ONE core that a thread's CPU, averaged over the window, must reach.
     * @param window Span a thread's CPU is averaged over; a thread younger than it does not count. Unset: 1m, or
     *     profiler.cpu.rolling-history-size when that is shorter. A bare number means seconds.
     */
    public record Saturation(@DefaultValue("true") boolean enabled,
            @DefaultValue("90") double threshold,
            @DurationUnit(ChronoUnit.SECONDS) Duration window) {
    }

    /**
     * Settings under {@code profiler.cpu.reference}: the reference of normal that every profile is compared with.
     *
     * @param enabled Whether the profiler records a reference of normal by itself (trigger REFERENCE) once the
     *     application has been calm and not idle for a whole average-window, and compares every later profile with it
     *     (requests per second and CPU per request of each endpoint, with a verdict, and the methods that grew). It
     *     never delays anything: an incident or an on-demand profile cancels one that records. Independent of
     *     profiler.cpu.enabled.
     * @param duration How long a reference records. Longer costs more CPU per refresh but counts more requests and
     *     samples, so a comparison can call smaller changes. A bare number means seconds.
     * @param refresh How old the reference may grow before a new one is recorded, at the next calm moment; one that
     *     failed or was cancelled is tried again after 5 minutes at the soonest. At least duration. A bare number
     *     means seconds.
     */
    public record Reference(@DefaultValue("true") boolean enabled,
            @DefaultValue("10s") @DurationUnit(ChronoUnit.SECONDS)
            Duration duration,
            @DefaultValue("1h") @DurationUnit(ChronoUnit.SECONDS)
            Duration refresh) {
    }
}
