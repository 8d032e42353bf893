package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.ThreadCpu;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.internal.baseline.RollingBaseline;
import dev.cpuprofiler.internal.core.PipelineBuilder.Pipeline;
import dev.cpuprofiler.internal.cpu.RecentCpuSamples;
import dev.cpuprofiler.internal.stack.HotMethods;
import dev.cpuprofiler.internal.stack.LookbackTrees;
import dev.cpuprofiler.internal.threads.SaturationReading;
import dev.cpuprofiler.internal.trigger.Holds;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/** Reads the pipeline's current state into the status the endpoint shows. */
final class StatusReader {

    private static final int TOP_THREADS = 10;

    private final Pipeline p;
    /** Each kept profile's hot method, found once (a walk of its whole tree): a stored profile never changes. */
    private final Map<String, Optional<String>> hotMethods = new ConcurrentHashMap<>();

    StatusReader(Pipeline pipeline) {
        this.p = pipeline;
    }

    CpuProfilerStatus read() {
        CpuProfilerOptions options = p.options();
        double latest = p.sampler().latestPercent();
        OptionalDouble avg = p.baseline().average();
        OptionalDouble highest = p.baseline().highestAverage();
        CpuProfilerStatus.Cpu cpu = new CpuProfilerStatus.Cpu(p.cpuSource().source().kind().id(), p.cpuSource().cgroupPath(),
                p.cpuSource().effectiveCpus().count(), p.cpuSource().effectiveCpus().origin(),
                Double.isNaN(latest) ? null : percent(latest),
                avg.isPresent() ? percent(avg.getAsDouble()) : null,
                options.getThreshold(), p.cpuSource().fallbackReason(), highest.isPresent()
                        ? percent(highest.getAsDouble()) : null, p.baseline().keptHistory());
        Holds holds = p.coordinator().holds();
        Instant now = p.clock().instant();
        Instant graceUntil = holds.graceUntil(now).orElse(null);
        CpuProfilerStatus.Trigger trigger = new CpuProfilerStatus.Trigger(options.isEnabled(), options.getCooldown(),
                holds.cooldownUntil(now).orElse(null), holds.cooldownRemaining(now).orElse(null), graceUntil,
                graceUntil == null ? null : Duration.between(now, graceUntil));
        CpuProfilerStatus.Session session = p.coordinator().activeSession().map(s -> CpuProfilerStatus.Session.of(s)).orElse(null);
        List<Profile> profiles = p.profiles().list();
        CpuProfilerStatus.Reference reference = p.profiles().reference().map(CpuProfilerStatus.Reference::of)
                .orElse(null);
        return new CpuProfilerStatus(p.coordinator().state(), cpu, trigger, session, p.profiles().latest().orElse(null),
                reference, summaries(profiles), threads(), saturation(), lookback(), disk(), history());
    }

    private List<CpuProfilerStatus.ProfileSummary> summaries(List<Profile> profiles) {
        if (hotMethods.size() > profiles.size()) {
            Set<String> kept = profiles.stream().map(Profile::id).collect(Collectors.toSet());
            hotMethods.keySet().retainAll(kept);
        }
        return profiles.stream().map(pr -> new CpuProfilerStatus.ProfileSummary(pr.id(), pr.trigger(),
                pr.recording().engine().id(), pr.recording().startedAt(), pr.recording().endedAt(),
                pr.recording().samples(), pr.recording().duration(),
                hotMethods.computeIfAbsent(pr.id(), id -> hotMethod(pr)).orElse(null),
                pr.recording().jfrFile() == null ? null : pr.id() + ProfileFormat.JFR.extension())).toList();
    }

    /** The method with the most self time, the look-back part included (as in the JSON's {@code hotMethods}). */
    private static Optional<String> hotMethod(Profile profile) {
        return HotMethods.of(LookbackTrees.select(LookbackView.INCLUDE, profile.tree(), profile.lookback()), 1)
                .stream().findFirst().map(HotMethods.Method::method);
    }

    private List<ThreadCpu> threads() {
        return p.threads() == null ? List.of() : p.threads().top(TOP_THREADS).stream().map(t -> new ThreadCpu(
                t.id(), t.name(), percent(t.cpuPercent()), t.cpuTime(), t.label())).toList();
    }

    private CpuProfilerStatus.Saturation saturation() {
        Optional<SaturationReading> hottest = p.threads() == null ? Optional.empty() : p.threads().saturation();
        return new CpuProfilerStatus.Saturation(p.coordinator().saturationOn(),
                p.options().getSaturation().getThreshold(), p.options().effectiveSaturationWindow(),
                hottest.map(SaturationReading::thread).orElse(null),
                hottest.map(SaturationReading::percentOfCore).orElse(null),
                hottest.map(SaturationReading::aboveFor).orElse(null));
    }

    private CpuProfilerStatus.Lookback lookback() {
        CpuProfilerStatus.Lookback l = p.lookback().status();
        return new CpuProfilerStatus.Lookback(l.state(), l.window(), l.samplingPeriod(), l.coveredFrom(),
                l.armsFrom(), l.samples(), l.footprintBytes(), l.reason(), l.source(),
                percent(l.armingPercent()), percent(l.recentCpuPercent()), l.armedSince(),
                percent(l.normalPercent()));
    }

    /** The free space where the profiler writes: a few statvfs calls, cheap enough for every status request. */
    private CpuProfilerStatus.Disk disk() {
        List<CpuProfilerStatus.Disk.Place> places = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        addPlace(places, problems, "jfr-repository", p.diskSpace().jfrRepository(), "JFR's repository");
        addPlace(places, problems, "work-directory", p.workDirectory().path(), "the profiler's work directory");
        Path output = p.options().getOutputDirectory();
        if (output != null) {
            addPlace(places, problems, "output-directory", output, "profiler.cpu.output-directory");
        }
        return new CpuProfilerStatus.Disk(places, problems.isEmpty() ? null : problems.get(0));
    }

    private void addPlace(List<CpuProfilerStatus.Disk.Place> places, List<String> problems, String role, Path path, String what) {
        p.diskSpace().check(path).ifPresent(c -> {
            places.add(new CpuProfilerStatus.Disk.Place(role, path.toString(), c.usableBytes(), c.floorBytes(), c.writable()));
            if (!c.ok()) {
                problems.add(c.describe(what));
            }
        });
    }

    /**
     * The chart's history: the sampler and the baseline keep ticker times (monotonic nanoseconds, cheap on the tick);
     * this turns them into seconds before one reading of the clock and the ticker, taken together.
     */
    private CpuProfilerStatus.History history() {
        Instant now = p.clock().instant();
        long nowNanos = p.ticker().nanoTime();
        // A quiet process is sampled less often, so the ring may reach further back than the chart shows.
        long from = nowNanos - RecentCpuSamples.SPAN.toNanos();
        List<double[]> samples = p.recentCpu().snapshot().stream()
                .filter(s -> s.nanoTime() >= from)
                .map(s -> new double[] {secondsBefore(nowNanos, s.nanoTime()), percent(s.percent())})
                .toList();
        List<double[]> slots = p.baseline().history().stream().map(s -> slot(nowNanos, s)).toList();
        return new CpuProfilerStatus.History(now, p.options().getSamplingInterval(),
                p.options().getRollingHistoryInterval(), samples, slots);
    }

    private static double[] slot(long nowNanos, RollingBaseline.Slot s) {
        return new double[] {secondsBefore(nowNanos, s.endNanoTime() - s.wallNanos()),
                secondsBefore(nowNanos, s.endNanoTime()), percent(s.percent())};
    }

    /** Seconds from now back to the ticker time, to 0.1 s (negative: in the past). */
    private static double secondsBefore(long nowNanos, long nanoTime) {
        return Math.round((nanoTime - nowNanos) / 100_000_000.0) / 10.0;
    }

    /** Percentages as the status shows them: to 0.01 (more would be noise, and costs bytes every poll). */
    private static double percent(double percent) {
        return Math.round(percent * 100.0) / 100.0;
    }

    private static Double percent(Double percent) {
        return percent == null ? null : percent(percent.doubleValue());
    }
}
