package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.StackTreeSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A profile for a test, by what it is about: a second of JFR's execution samples at 10 ms from the epoch, as many
 * samples as its tree holds, nothing else measured and no requests, unless said otherwise. A copy of profiler-core's
 * tests' own: profiler-test-fixtures, which both modules' tests share, cannot see {@link Profile}.
 */
public final class ProfileBuilder {

    private String id;
    private final SessionTrigger trigger;
    private final StackTreeSnapshot tree;
    private EngineChoice engine = EngineChoice.JFR_EXECUTION;
    private String engineDetail;
    private List<Profile.EngineFallback> fallbacks = List.of();
    private List<String> notes = List.of();
    private Instant startedAt = Instant.EPOCH;
    private Instant endedAt = Instant.EPOCH.plusSeconds(1);
    private Duration samplingPeriod = Duration.ofMillis(10);
    private Long samples;
    private long lostSamples;
    private Path jfrFile;
    private Profile.CpuUse cpu = Profile.CpuUse.UNKNOWN;
    private Profile.Requests requests = Profile.Requests.NONE;
    private LookbackSnapshot lookback;
    private Profile.Saturation saturation;
    private Profile.Comparison comparison;
    private Profile.Latency latency;

    private ProfileBuilder(String id, SessionTrigger trigger, StackTreeSnapshot tree) {
        this.id = id;
        this.trigger = trigger;
        this.tree = tree;
    }

    public static ProfileBuilder profile(String id, SessionTrigger trigger, StackTreeSnapshot tree) {
        return new ProfileBuilder(id, trigger, tree);
    }

    /** {@code p} as it is, to change a part of. */
    public static ProfileBuilder copy(Profile p) {
        Profile.Recording r = p.recording();
        return profile(p.id(), p.trigger(), p.tree()).engine(r.engine(), r.engineDetail()).fallbacks(r.fallbacks())
                .notes(r.notes()).between(r.startedAt(), r.endedAt()).period(r.samplingPeriod()).samples(r.samples())
                .lostSamples(r.lostSamples()).jfrFile(r.jfrFile()).cpu(p.cpu()).requests(p.requests())
                .lookback(p.lookback()).saturation(p.saturation()).comparison(p.comparison());
    }

    public ProfileBuilder id(String id) {
        this.id = id;
        return this;
    }

    public ProfileBuilder engine(EngineChoice engine, String detail) {
        this.engine = engine;
        this.engineDetail = detail;
        return this;
    }

    public ProfileBuilder fallbacks(List<Profile.EngineFallback> fallbacks) {
        this.fallbacks = fallbacks;
        return this;
    }

    public ProfileBuilder notes(List<String> notes) {
        this.notes = notes;
        return this;
    }

    public ProfileBuilder between(Instant startedAt, Instant endedAt) {
        this.startedAt = startedAt;
        this.endedAt = endedAt;
        return this;
    }

    public ProfileBuilder period(Duration samplingPeriod) {
        this.samplingPeriod = samplingPeriod;
        return this;
    }

    public ProfileBuilder samples(long samples) {
        this.samples = samples;
        return this;
    }

    public ProfileBuilder lostSamples(long lostSamples) {
        this.lostSamples = lostSamples;
        return this;
    }

    public ProfileBuilder jfrFile(Path jfrFile) {
        this.jfrFile = jfrFile;
        return this;
    }

    public ProfileBuilder cpu(Profile.CpuUse cpu) {
        this.cpu = cpu;
        return this;
    }

    public ProfileBuilder cpuPercent(Double percent) {
        return cpu(new Profile.CpuUse(percent, cpu.concurrency(), cpu.breakdown()));
    }

    public ProfileBuilder requests(Profile.Requests requests) {
        this.requests = requests;
        return this;
    }

    /** Endpoints without traces. */
    public ProfileBuilder endpoints(List<EndpointShare> endpoints, StackTreeSnapshot endpointTree) {
        return requests(new Profile.Requests(endpoints, endpointTree, List.of(), null));
    }

    public ProfileBuilder lookback(LookbackSnapshot lookback) {
        this.lookback = lookback;
        return this;
    }

    public ProfileBuilder saturation(Profile.Saturation saturation) {
        this.saturation = saturation;
        return this;
    }

    public ProfileBuilder comparison(Profile.Comparison comparison) {
        this.comparison = comparison;
        return this;
    }

    public ProfileBuilder latency(Profile.Latency latency) {
        this.latency = latency;
        return this;
    }

    public Profile build() {
        return new Profile(id, trigger, new Profile.Recording(engine, engineDetail, fallbacks, notes, startedAt, endedAt,
                samplingPeriod, samples != null ? samples : tree.totalSamples(), lostSamples, jfrFile), tree, cpu,
                requests, lookback, saturation, comparison, latency);
    }
}
