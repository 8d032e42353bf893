package dev.cpuprofiler;

import dev.cpuprofiler.Setting.Choice;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.lookback.LookbackSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Every {@code profiler.cpu.*} setting, each declared once with its default, the values it allows and its
 * description. {@link CpuProfilerOptions} takes its defaults, copy and validation from here; the Spring module's
 * configuration metadata is written from here (the autoconfigure tests' {@code SettingsMetadata}) and README's
 * table is checked against it. A range that is a stage's own limit is declared in that stage and only referred to
 * here.
 */
public final class CpuProfilerSettings {

    private static final String SECONDS = "seconds";
    private static final String MILLISECONDS = "milliseconds";

    public static final Setting<Boolean> ENABLED = flag("enabled", true, CpuProfilerOptions::isEnabled,
            CpuProfilerOptions::setEnabled)
            .description("Whether high CPU starts a profile. Monitoring, the endpoint and on-demand profiles keep "
                    + "working when false.")
            .mirrors("ApplicationInsightsProfiler_CpuTriggerEnabled");

    public static final Setting<Double> THRESHOLD = new Setting<>("threshold", Double.class, 80.0,
            CpuProfilerOptions::getThreshold, CpuProfilerOptions::setThreshold, SettingText::number)
            .description("CPU percentage that the average must exceed (strictly) to start a profile.")
            .mirrors("ApplicationInsightsProfiler_CpuThreshold")
            .rule((v, o) -> v > 0 && v <= 100, o -> "must be a percentage greater than 0 and at most 100",
                    "greater than 0 and at most 100");

    public static final Setting<Duration> COOLDOWN = duration("cooldown", Duration.ofHours(4), SECONDS,
            CpuProfilerOptions::getCooldown, CpuProfilerOptions::setCooldown)
            .description("Quiet time after a CPU-triggered profile ends, from its end.")
            .mirrors("ApplicationInsightsProfiler_Cpu_TriggerCooldownInSeconds")
            .rule((v, o) -> v != null && !v.isNegative(), o -> "must be zero or positive", "zero or positive");

    public static final Setting<Duration> DURATION = duration("duration", Duration.ofSeconds(30), SECONDS,
            CpuProfilerOptions::getDuration, CpuProfilerOptions::setDuration)
            .description("How long a profile records; an on-demand profile may ask for another duration in the "
                    + "same range.")
            .mirrors("ApplicationInsightsProfiler_Cpu_ProfilingDurationInSeconds")
            .within(Range.between(Duration.ofSeconds(1), Duration.ofHours(1)), SettingText::duration);

    public static final Setting<Duration> SAMPLING_INTERVAL = duration("sampling-interval", Duration.ofSeconds(1),
            SECONDS, CpuProfilerOptions::getSamplingInterval, CpuProfilerOptions::setSamplingInterval)
            .description("How often CPU usage is sampled.")
            .within(Range.between(Duration.ofMillis(10), Duration.ofMinutes(1)), SettingText::duration);

    public static final Setting<Duration> POLLING_INTERVAL = duration("polling-interval", Duration.ofSeconds(5),
            SECONDS, CpuProfilerOptions::getPollingInterval, CpuProfilerOptions::setPollingInterval)
            .description("How often the trigger compares the average with the threshold.")
            .within(Range.between(Duration.ofMillis(10), Duration.ofHours(1)), SettingText::duration);

    public static final Setting<Duration> ROLLING_HISTORY_INTERVAL = duration("rolling-history-interval",
            Duration.ofSeconds(30), SECONDS, CpuProfilerOptions::getRollingHistoryInterval,
            CpuProfilerOptions::setRollingHistoryInterval)
            .description("Length of one baseline slot, each holding the true average over it.")
            .mirrors("CpuRollingHistoryInterval")
            .within(Range.between(SAMPLING_INTERVAL, Duration.ofHours(1)), SettingText::duration);

    /** The baseline's circular buffer holds at most this many slots. */
    public static final int MAX_HISTORY_SLOTS = 100_000;

    public static final Setting<Duration> ROLLING_HISTORY_SIZE = duration("rolling-history-size",
            Duration.ofMinutes(10), SECONDS, CpuProfilerOptions::getRollingHistorySize,
            CpuProfilerOptions::setRollingHistorySize)
            .description("How much CPU history the rolling baseline keeps.")
            .mirrors("CpuRollingHistorySize")
            .within(Range.between(ROLLING_HISTORY_INTERVAL, Duration.ofDays(1)), SettingText::duration)
            .rule((v, o) -> v.toNanos() / o.getRollingHistoryInterval().toNanos() <= MAX_HISTORY_SLOTS,
                    o -> "must hold at most " + MAX_HISTORY_SLOTS + " rolling-history-interval slots",
                    "at most " + MAX_HISTORY_SLOTS + " times rolling-history-interval");

    public static final Setting<Duration> AVERAGE_WINDOW = duration("average-window", Duration.ofSeconds(30),
            SECONDS, CpuProfilerOptions::getAverageWindow, CpuProfilerOptions::setAverageWindow)
            .description("Span of recent baseline slots the average covers.")
            .mirrors("CpuAverageWindow")
            .within(Range.between(ROLLING_HISTORY_INTERVAL, ROLLING_HISTORY_SIZE), SettingText::duration);

    public static final Setting<CpuSourceMode> SOURCE = new Setting<>("source", CpuSourceMode.class,
            CpuSourceMode.AUTO, CpuProfilerOptions::getSource, CpuProfilerOptions::setSource,
            CpuProfilerSettings::id)
            .description("Where CPU usage is read.")
            .choices(new Choice("auto", "The container's cgroup when the process has one of its own with readable "
                            + "counters, otherwise the process's CPU time."),
                    new Choice("cgroup", "The process's cgroup (v2 or v1), falling back to the process's CPU time "
                            + "with a log line if none is readable."),
                    new Choice("process", "The process's own CPU time (OperatingSystemMXBean.getProcessCpuTime)."));

    public static final Setting<EngineChoice> ENGINE = new Setting<>("engine", EngineChoice.class, EngineChoice.AUTO,
            CpuProfilerOptions::getEngine, CpuProfilerOptions::setEngine, EngineChoice::id)
            .description("Sampling engine that records a profile.")
            .choices(new Choice("auto", "The first of jfr-cpu-time, async-profiler and jfr-execution that starts."),
                    new Choice("jfr-cpu-time", "JFR jdk.CPUTimeSample: samples by CPU time (JDK 25+, Linux)."),
                    new Choice("async-profiler", "async-profiler event=cpu (perf_events, else ctimer); needs "
                            + "tools.profiler:async-profiler on the classpath."),
                    new Choice("jfr-execution", "JFR jdk.ExecutionSample and jdk.NativeMethodSample: every "
                            + "JDK 17+."));

    public static final Setting<Duration> STACK_SAMPLING_PERIOD = duration("stack-sampling-period",
            Duration.ofMillis(10), MILLISECONDS, CpuProfilerOptions::getStackSamplingPeriod,
            CpuProfilerOptions::setStackSamplingPeriod)
            .description("Interval between stack samples while a profile records.")
            .within(Range.between(EngineSettings.MIN_PERIOD, EngineSettings.MAX_PERIOD), SettingText::duration);

    public static final Setting<Integer> RETAINED_PROFILES = count("retained-profiles", 10,
            CpuProfilerOptions::getRetainedProfiles, CpuProfilerOptions::setRetainedProfiles)
            .description("How many recent profiles stay in memory.")
            .within(Range.between(1, 1000), String::valueOf);

    /** The least memory {@link #RETAINED_SIZE} may give the profiles. */
    public static final long MIN_RETAINED_BYTES = 1024 * 1024;

    public static final Setting<Long> RETAINED_SIZE = bytes("retained-size", 64L * 1024 * 1024, "megabytes",
            CpuProfilerOptions::getRetainedBytes, CpuProfilerOptions::setRetainedBytes)
            .description("Most memory the retained profiles may take together, counting the recordings kept on "
                    + "disk for format=jfr; the oldest are dropped first.")
            .rule((v, o) -> v >= MIN_RETAINED_BYTES, o -> "must be at least " + SettingText.bytes(MIN_RETAINED_BYTES),
                    "at least " + SettingText.bytes(MIN_RETAINED_BYTES));

    public static final Setting<Path> OUTPUT_DIRECTORY = new Setting<>("output-directory", Path.class, null,
            CpuProfilerOptions::getOutputDirectory, CpuProfilerOptions::setOutputDirectory, Path::toString)
            .description("Directory where each profile is also written (collapsed stacks, HTML flame graph, and the "
                    + ".jfr recording when a JFR engine recorded it), readable by the owner only. Unset: memory only.");

    public static final Setting<Integer> OUTPUT_RETENTION = count("output-retention", 20,
            CpuProfilerOptions::getOutputRetention, CpuProfilerOptions::setOutputRetention)
            .description("How many profiles the output directory keeps; older ones are deleted.")
            .within(Range.between(1, 100_000), String::valueOf);

    public static final Setting<Integer> MAX_STACK_DEPTH = count("max-stack-depth", 512,
            CpuProfilerOptions::getMaxStackDepth, CpuProfilerOptions::setMaxStackDepth)
            .description("Deepest stack kept in a profile's tree; deeper stacks are cut and counted. Every engine "
                    + "records this deep: async-profiler's jstackdepth, and JFR's own stack depth (at most 2048), "
                    + "which the profiler raises when it starts unless JFR was started earlier (then "
                    + "-XX:FlightRecorderOptions:stackdepth=N raises it). So async-profiler keeps up to 8192 frames "
                    + "(within its 1 MB stack walk), the JFR engines up to 2048; a stack cut shorter starts at "
                    + "[truncated] and counts as cut.")
            .within(Range.between(8, 8192), String::valueOf);

    public static final Setting<Integer> MAX_TREE_NODES = count("max-tree-nodes", 200_000,
            CpuProfilerOptions::getMaxTreeNodes, CpuProfilerOptions::setMaxTreeNodes)
            .description("Most nodes one profile's tree may hold; samples that would need more are counted as "
                    + "truncated.")
            .within(Range.between(100, 10_000_000), String::valueOf);

    public static final Setting<Boolean> GROUP_BY_THREAD = flag("group-by-thread", false,
            CpuProfilerOptions::isGroupByThread, CpuProfilerOptions::setGroupByThread)
            .description("Whether the tree's first level is the thread, numbered pool threads folded into one "
                    + "(http-nio-8080-exec-*).");

    private static final Range<Duration> LOOKBACK_WINDOW = Range.between(LookbackSettings.MIN_WINDOW,
            LookbackSettings.MAX_WINDOW);

    public static final Setting<Duration> LOOKBACK = duration("lookback", Duration.ofSeconds(30), SECONDS,
            CpuProfilerOptions::getLookback, CpuProfilerOptions::setLookback)
            .description("How far back a CPU-triggered profile reaches, so it also shows what raised the average, not "
                    + "only what follows. The look-back records nothing while the application is calm: it arms when "
                    + "the CPU (the last 3 s) rises above lookback-arming-ratio of the threshold, keeps the stack "
                    + "samples of the last this long in a bounded in-memory ring (a low-rate JFR recording) while "
                    + "armed, and disarms, stopping JFR and freeing the ring, once the CPU has stayed below that level "
                    + "for this long. It does not arm during startup-grace nor during the cooldown (until one window "
                    + "before it ends), and steps aside while a profile records. 0 turns it off. Only used while the "
                    + "CPU trigger is on.")
            .rule((v, o) -> v != null && (v.isZero() || LOOKBACK_WINDOW.contains(v)),
                    o -> "must be 0 (off) or " + LOOKBACK_WINDOW.allowed(o),
                    "0 (off) or " + LOOKBACK_WINDOW.describe(SettingText::duration));

    public static final Setting<Double> LOOKBACK_ARMING_RATIO = new Setting<>("lookback-arming-ratio", Double.class,
            0.6, CpuProfilerOptions::getLookbackArmingRatio, CpuProfilerOptions::setLookbackArmingRatio,
            SettingText::number)
            .description("The share of threshold the CPU (averaged over the last 3 s) must exceed for the look-back "
                    + "to arm: 0.6 with threshold 80 arms at 48%. Lower arms earlier and more often; 1 arms only "
                    + "at the threshold itself, so the ring holds less of the rise.")
            .rule((v, o) -> v > 0 && v <= 1, o -> "must be greater than 0 and at most 1", "greater than 0 and at most 1");

    public static final Setting<Duration> LOOKBACK_SAMPLING_PERIOD = duration("lookback-sampling-period",
            LookbackSettings.DEFAULT_PERIOD, MILLISECONDS, CpuProfilerOptions::getLookbackSamplingPeriod,
            CpuProfilerOptions::setLookbackSamplingPeriod)
            .description("Interval between the look-back's stack samples; coarser than stack-sampling-period to "
                    + "keep it cheap. Its samples are weighed to the session's period, so shares compare across "
                    + "both parts.")
            .within(Range.between(LookbackSettings.MIN_PERIOD, LookbackSettings.MAX_PERIOD), SettingText::duration);

    public static final Setting<Duration> STARTUP_GRACE = duration("startup-grace", Duration.ofSeconds(60), SECONDS,
            CpuProfilerOptions::getStartupGrace, CpuProfilerOptions::setStartupGrace)
            .description("Time after the application is ready during which the CPU trigger does not fire and the "
                    + "look-back does not arm: warm-up (JIT compilation, caches filling) burns CPU that is not an "
                    + "incident. CPU monitoring, the endpoint and on-demand profiles work from the start.")
            .within(Range.between(Duration.ZERO, Duration.ofHours(1)), SettingText::duration);

    public static final Setting<Long> MIN_FREE_DISK_SPACE = bytes("min-free-disk-space",
            CpuProfilerOptions.AUTO_FREE_DISK_SPACE, "bytes", CpuProfilerOptions::getMinFreeDiskSpace,
            CpuProfilerOptions::setMinFreeDiskSpace)
            .description("Free space the profiler leaves on every filesystem it writes to: JFR's repository "
                    + "(java.io.tmpdir unless -XX:FlightRecorderOptions:repository says otherwise), its work "
                    + "directory and output-directory. Below it a profile or the look-back does not start, one under "
                    + "way stops early and keeps what it recorded, and no profile file is written; the reason is "
                    + "logged once and shown in the status. JFR stops the whole JVM when its repository cannot be "
                    + "written, so this is what keeps a filling disk from taking the application down with it. "
                    + "Unset: 5% of each filesystem, at least 64MB (what JFR may write at once) and at most 512MB. 0 "
                    + "turns the check off.")
            .rule((v, o) -> v >= 0 || v == CpuProfilerOptions.AUTO_FREE_DISK_SPACE,
                    o -> "must be at least 0B (0 turns the check off); leave it unset for 5% of each filesystem, "
                            + "between 64MB and 512MB",
                    "at least 0B");

    public static final Setting<Boolean> JFR_INCLUDE_SYSTEM_INFO = flag("jfr.include-system-info", false,
            CpuProfilerOptions::isJfrIncludeSystemInfo, CpuProfilerOptions::setJfrIncludeSystemInfo)
            .description("Sensitive. Whether the engine's JFR recording (format=jfr, the output directory's .jfr, a "
                    + "Pyroscope jfr push) also carries the JVM's system information: its arguments and command "
                    + "line, its system properties, the OS and the native libraries. These hold whatever the "
                    + "application was started with, passwords and tokens included, so they are left out by default. "
                    + "Environment variables are never recorded.");

    private static final List<Setting<?>> ALL = List.of(ENABLED, THRESHOLD, COOLDOWN, DURATION, ROLLING_HISTORY_SIZE,
            ROLLING_HISTORY_INTERVAL, AVERAGE_WINDOW, SAMPLING_INTERVAL, POLLING_INTERVAL, SOURCE, ENGINE,
            STACK_SAMPLING_PERIOD, RETAINED_PROFILES, RETAINED_SIZE, OUTPUT_DIRECTORY, OUTPUT_RETENTION,
            MAX_STACK_DEPTH, MAX_TREE_NODES, GROUP_BY_THREAD, LOOKBACK, LOOKBACK_ARMING_RATIO, LOOKBACK_SAMPLING_PERIOD,
            STARTUP_GRACE, MIN_FREE_DISK_SPACE, JFR_INCLUDE_SYSTEM_INFO);

    private CpuProfilerSettings() {
    }

    /** Every setting, in README's order. */
    public static List<Setting<?>> all() {
        return ALL;
    }

    private static Setting<Boolean> flag(String key, boolean defaultValue, Function<CpuProfilerOptions, Boolean> get,
            BiConsumer<CpuProfilerOptions, Boolean> set) {
        return new Setting<>(key, Boolean.class, defaultValue, get, set, String::valueOf);
    }

    private static Setting<Integer> count(String key, int defaultValue, Function<CpuProfilerOptions, Integer> get,
            BiConsumer<CpuProfilerOptions, Integer> set) {
        return new Setting<>(key, Integer.class, defaultValue, get, set, String::valueOf);
    }

    private static Setting<Duration> duration(String key, Duration defaultValue, String bareNumber,
            Function<CpuProfilerOptions, Duration> get, BiConsumer<CpuProfilerOptions, Duration> set) {
        return new Setting<>(key, Duration.class, defaultValue, get, set, SettingText::duration)
                .bareNumber(bareNumber);
    }

    /** Sizes: {@link CpuProfilerOptions#AUTO_FREE_DISK_SPACE} means unset; messages show the bytes as {@code nB}. */
    private static Setting<Long> bytes(String key, long defaultValue, String bareNumber,
            Function<CpuProfilerOptions, Long> get, BiConsumer<CpuProfilerOptions, Long> set) {
        return new Setting<>(key, Long.class, defaultValue, get, set,
                v -> v == CpuProfilerOptions.AUTO_FREE_DISK_SPACE ? null : SettingText.bytes(v))
                .bareNumber(bareNumber).shown(v -> v + "B");
    }

    private static String id(CpuSourceMode mode) {
        return mode.name().toLowerCase(Locale.ROOT);
    }
}
