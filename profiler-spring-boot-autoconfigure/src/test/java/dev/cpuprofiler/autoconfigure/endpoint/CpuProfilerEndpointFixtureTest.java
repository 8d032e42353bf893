package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.autoconfigure.StoredProfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.autoconfigure.CpuProfilerMeterBinder;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ErrorDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.SessionDescriptor;
import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.internal.core.DefaultCpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.EngineUnavailableException;
import dev.cpuprofiler.internal.engine.ProfilingEngine;
import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.internal.session.ProfileStore;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.internal.stack.StackSink;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.ConcurrencyReport;
import dev.cpuprofiler.CpuBreakdown;
import dev.cpuprofiler.ThreadCpu;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.util.MimeType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The endpoint's logic on a fixture: a {@link CpuProfiler} built on a fake cgroup v2 container (1.5 CPUs), a fixed
 * clock and an engine the test owns, never started (no sampler, no policy thread), whose store holds profiles
 * built here stack by stack. Every figure the endpoint shows is therefore known in advance and asserted exactly:
 * the status, each format of a profile, the look-back views, hot methods, thread labels, the CPU breakdown, the
 * refusals and an on-demand start. Real HTTP and a real engine are {@link CpuProfilerEndpointHttpTest}'s part.
 */
class CpuProfilerEndpointFixtureTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant NOW = Instant.parse("2026-11-23T10:00:30Z");
    private static final Instant STARTED = Instant.parse("2026-11-23T10:00:10Z");
    private static final Instant ENDED = Instant.parse("2026-11-23T10:00:13Z");
    private static final String BURN = "app.Burner.burn";
    private static final String MIX = "app.Burner.mix";
    private static final String READ = "app.Io.read";
    private static final String WARM = "app.Burner.warmUp";
    private static final String RUN = "java.lang.Thread.run";

    @TempDir
    Path root;

    private final AtomicInteger launches = new AtomicInteger();
    private final AtomicReference<RuntimeException> launchFailure = new AtomicReference<>();
    private CpuProfiler profiler;
    private CpuProfilerEndpoint endpoint;

    @BeforeEach
    void buildTheFixture() throws IOException {
        fakeCgroupV2Container(root, "150000 100000", "0-3");
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setThreshold(25);
        options.setCooldown(Duration.ofSeconds(5));
        options.setDuration(Duration.ofSeconds(3));
        profiler = DefaultCpuProfiler.builder(options).fsRoot(root).clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .profileStore(new ProfileStore(10, 64L << 20, null))
                .engines(List.of(new FixtureEngine()))
                .workDirectory(root.resolve("work"))
                .build();
        endpoint = new CpuProfilerEndpoint(profiler, () -> null, () -> false);
    }

    @AfterEach
    void close() {
        profiler.close();
    }

    @Test
    void beforeAnyProfileTheStatusIsExactAndLatestIs404() throws Exception {
        JsonNode status = json(endpoint.status());

        assertThat(status.path("state").asString()).isEqualTo("MONITORING");
        JsonNode cpu = status.path("cpu");
        assertThat(cpu.path("source").asString()).isEqualTo("cgroup-v2");
        assertThat(cpu.path("effectiveCpuCount").asDouble()).isEqualTo(1.5);
        assertThat(cpu.path("thresholdPercent").asDouble()).isEqualTo(25.0);
        assertThat(cpu.path("latestPercent").isNull()).as("never sampled").isTrue();
        assertThat(cpu.path("averagePercent").isNull()).isTrue();
        assertThat(cpu.path("fallbackReason").isNull()).isTrue();
        assertThat(status.path("trigger").path("enabled").asBoolean()).isTrue();
        assertThat(status.path("trigger").path("cooldown").asString()).isEqualTo("PT5S");
        assertThat(status.path("trigger").path("cooldownUntil").isNull()).isTrue();
        assertThat(status.path("session").isNull()).isTrue();
        assertThat(status.path("latestProfile").isNull()).isTrue();
        assertThat(status.path("profiles").isArray()).isTrue();
        assertThat(status.path("profiles").isEmpty()).isTrue();
        assertThat(status.path("threads").isEmpty()).isTrue();
        // On by default, idle: not started here (no thread runs in this test), armed above 60% of the threshold.
        JsonNode lookback = status.path("lookback");
        assertThat(lookback.path("state").asString()).isEqualTo("STOPPED");
        assertThat(lookback.path("window").asString()).isEqualTo("PT30S");
        assertThat(lookback.path("armingPercent").asDouble()).isEqualTo(15.0);
        assertThat(lookback.path("recentCpuPercent").isNull()).isTrue();
        assertThat(lookback.path("samples").asLong()).isZero();
        assertThat(status.path("trigger").path("startupGraceUntil").isNull()).as("not started").isTrue();

        WebEndpointResponse<?> latest = endpoint.profile("latest", null, null, null, null, null);
        assertThat(latest.getStatus()).isEqualTo(404);
        assertThat(((ErrorDescriptor) latest.getBody()).message()).isEqualTo("No profile 'latest': none recorded yet");
    }

    @Test
    void theStatusShowsTheLatestProfileFoldedAndListsEveryProfileNewestFirst() throws Exception {
        StoredProfiles.add(profiler, fixture("older", SessionTrigger.MANUAL, null));
        StoredProfiles.add(profiler, fixture("newest", SessionTrigger.CPU, lookback()));

        JsonNode status = json(endpoint.status());

        assertThat(status.path("profiles")).extracting(p -> p.path("id").asString(), p -> p.path("trigger").asString(),
                p -> p.path("engine").asString(), p -> p.path("samples").asLong())
                .containsExactly(tuple("newest", "CPU", "async-profiler", 100L),
                        tuple("older", "MANUAL", "async-profiler", 100L));
        JsonNode latest = status.path("latestProfile");
        assertThat(latest.path("id").asString()).isEqualTo("newest");
        assertThat(latest.path("lookbackView").asString()).isEqualTo("include");
        assertThat(latest.path("treeMinPercent").asDouble()).isEqualTo(0.5);
        // The status's tree holds the look-back part: 100 session samples + 40 look-back weight.
        assertThat(latest.path("tree").path("total").asLong()).isEqualTo(140);
        assertThat(collapsed(latest.path("tree"))).containsExactlyInAnyOrder(RUN + ";" + BURN + " 60",
                RUN + ";" + BURN + ";" + MIX + " 20", RUN + ";" + READ + " 15", "[truncated];" + MIX + " 5",
                RUN + ";" + WARM + " 40");
        // Profiles never change once stored: the folded view is built once per profile, and kept with the renders.
        AtomicInteger renders = new AtomicInteger();
        CpuProfilerEndpoint counted = new CpuProfilerEndpoint(profiler, () -> null, () -> false, new ProfileRenders(
                1 << 20, 1, (p, f, v) -> {
                    renders.incrementAndGet();
                    return f.bytes(p, v);
                }));
        assertThat(counted.status().latestProfile()).isEqualTo(counted.status().latestProfile())
                .isEqualTo(endpoint.status().latestProfile());
        assertThat(renders).hasValue(1);
    }

    @Test
    void aProfileAsJsonCarriesEveryFigureOfTheFixture() throws Exception {
        StoredProfiles.add(profiler, fixture("p1", SessionTrigger.CPU, lookback()));

        WebEndpointResponse<?> response = endpoint.profile("p1", "json", null, null, null, null);

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getContentType()).hasToString("application/json");
        JsonNode p = json(response.getBody());
        assertThat(p.path("id").asString()).isEqualTo("p1");
        assertThat(p.path("trigger").asString()).isEqualTo("CPU");
        assertThat(p.path("engine").asString()).isEqualTo("async-profiler");
        assertThat(p.path("engineDetail").asString()).isEqualTo("perf_events");
        assertThat(p.path("fallbacks")).extracting(f -> f.path("engineId").asString(), f -> f.path("reason").asString())
                .containsExactly(tuple("jfr-cpu-time", "needs JDK 25"));
        assertThat(p.path("notes")).extracting(JsonNode::asString).containsExactly("2 samples lost");
        assertThat(p.path("startedAt").asString()).isEqualTo("2026-11-23T10:00:10Z");
        assertThat(p.path("endedAt").asString()).isEqualTo("2026-11-23T10:00:13Z");
        assertThat(p.path("duration").asString()).isEqualTo("PT3S");
        assertThat(p.path("samplingPeriod").asString()).isEqualTo("PT0.01S");
        assertThat(p.path("samples").asLong()).isEqualTo(100);
        assertThat(p.path("lostSamples").asLong()).isEqualTo(2);
        assertThat(p.path("cpuPercent").asDouble()).as("rounded to two decimals").isEqualTo(87.46);
        assertThat(p.path("jfrFile").isNull()).isTrue();
        // Look-back included (the default): 140 = 100 + 40; the cut samples are the 5 under [truncated] of 140.
        assertThat(p.path("lookbackView").asString()).isEqualTo("include");
        assertThat(p.path("treeMinPercent").isNull()).as("a full profile is not folded").isTrue();
        assertThat(p.path("tree").path("frame").asString()).isEqualTo("all");
        assertThat(p.path("tree").path("total").asLong()).isEqualTo(140);
        assertThat(p.path("cutSamples").asLong()).isEqualTo(5);
        assertThat(p.path("cutPercent").asDouble()).isEqualTo(3.57);
        assertThat(p.path("truncatedSamples").asLong()).as("the tree counts the samples under [truncated]").isEqualTo(5);
        assertThat(p.path("hotMethods")).extracting(h -> h.path("method").asString(),
                h -> h.path("selfPercent").asDouble(), h -> h.path("totalPercent").asDouble(),
                h -> h.path("samples").asLong())
                .containsExactly(tuple(BURN, 42.86, 57.14, 60L), tuple(WARM, 28.57, 28.57, 40L),
                        tuple(MIX, 17.86, 17.86, 25L), tuple(READ, 10.71, 10.71, 15L));
        JsonNode lookback = p.path("lookback");
        assertThat(lookback.path("startedAt").asString()).isEqualTo("2026-11-23T10:00:05Z");
        assertThat(lookback.path("endedAt").asString()).isEqualTo("2026-11-23T10:00:10Z");
        assertThat(lookback.path("duration").asString()).isEqualTo("PT5S");
        assertThat(lookback.path("samplingPeriod").asString()).isEqualTo("PT0.02S");
        assertThat(lookback.path("weightUnit").asString()).isEqualTo("PT0.01S");
        assertThat(lookback.path("samples").asLong()).isEqualTo(20);
        assertThat(lookback.path("weight").asLong()).isEqualTo(40);
        assertThat(lookback.path("notes")).extracting(JsonNode::asString).containsExactly("fixture look-back note");

        JsonNode breakdown = p.path("cpuBreakdown");
        assertThat(breakdown.path("processCpuTime").asString()).isEqualTo("PT5.5S");
        assertThat(breakdown.path("source").asString()).isEqualTo("proc");
        assertThat(breakdown.path("groups")).extracting(g -> g.path("group").asString(),
                g -> g.path("cpuTime").asString(), g -> g.path("percent").asDouble())
                .containsExactly(tuple("application", "PT4.4S", 80.0), tuple("gc", "PT0.55S", 10.0),
                        tuple("jit", "PT0.275S", 5.0), tuple("profiler", "PT0.11S", 2.0),
                        tuple("jvm-other", "PT0.165S", 3.0));

        JsonNode concurrency = p.path("concurrency");
        assertThat(concurrency.path("utilization").asDouble()).as("rounded to 4 decimals").isEqualTo(0.6667);
        assertThat(concurrency.path("bottleneck").asDouble()).isEqualTo(0.8333);
        assertThat(concurrency.path("bottleneckLow").asDouble()).isEqualTo(0.8);
        assertThat(concurrency.path("bottleneckHigh").asDouble()).isEqualTo(0.9);
        assertThat(concurrency.path("averageRunning").asDouble()).isEqualTo(1.3333);
        assertThat(concurrency.path("effectiveCpus").asDouble()).isEqualTo(1.5);
        assertThat(concurrency.path("tick").asString()).isEqualTo("PT0.1S");
        assertThat(concurrency.path("threadsSeen").asInt()).isEqualTo(12);
        assertThat(concurrency.path("histogram")).extracting(b -> b.path("threads").asInt(),
                b -> b.path("seconds").asDouble()).containsExactly(tuple(0, 0.5), tuple(1, 1.0), tuple(2, 1.5));
        assertThat(concurrency.path("threads")).extracting(t -> t.path("name").asString(), t -> t.path("id").asLong(),
                t -> t.path("cpuPercent").asDouble(), t -> t.path("cpuTime").asString(), t -> t.path("label").asString())
                .containsExactly(tuple("burner-1", 41L, 95.46, "PT2.864S", "CPU_BOUND"),
                        tuple("mixer", 42L, 45.0, "PT1.35S", "MIXED"),
                        tuple("reader", 43L, 5.0, "PT0.15S", "MOSTLY_WAITING"));
    }

    @Test
    void theLookbackViewsSelectTheSessionsSamplesTheLookbacksOrBoth() throws Exception {
        StoredProfiles.add(profiler, fixture("p1", SessionTrigger.CPU, lookback()));

        JsonNode exclude = json(endpoint.profile("p1", null, "exclude", null, null, null).getBody());
        assertThat(exclude.path("lookbackView").asString()).isEqualTo("exclude");
        assertThat(exclude.path("tree").path("total").asLong()).isEqualTo(100);
        assertThat(exclude.path("cutPercent").asDouble()).isEqualTo(5.0);
        assertThat(exclude.path("hotMethods")).extracting(h -> h.path("method").asString(),
                h -> h.path("selfPercent").asDouble(), h -> h.path("totalPercent").asDouble())
                .containsExactly(tuple(BURN, 60.0, 80.0), tuple(MIX, 25.0, 25.0), tuple(READ, 15.0, 15.0));
        // The look-back's figures stay in the document whatever the view: they describe the profile.
        assertThat(exclude.path("lookback").path("weight").asLong()).isEqualTo(40);

        assertThat(text(endpoint.profile("p1", "collapsed", "only", null, null, null))).isEqualTo(RUN + ";" + WARM + " 40\n");
        assertThat(text(endpoint.profile("p1", "collapsed", "exclude", null, null, null)).lines()).containsExactlyInAnyOrder(
                RUN + ";" + BURN + " 60", RUN + ";" + BURN + ";" + MIX + " 20", RUN + ";" + READ + " 15",
                "[truncated];" + MIX + " 5");
        assertThat(text(endpoint.profile("p1", "collapsed", "include", null, null, null)).lines()).hasSize(5)
                .contains(RUN + ";" + WARM + " 40");

        WebEndpointResponse<?> bad = endpoint.profile("p1", null, "sometimes", null, null, null);
        assertThat(bad.getStatus()).isEqualTo(400);
        assertThat(((ErrorDescriptor) bad.getBody()).message())
                .isEqualTo("Unknown lookback 'sometimes': use include, exclude or only");
    }

    @Test
    void groupNamesAWayToGroupStacksAndSaysWhenAProfileCannot() throws Exception {
        StoredProfiles.add(profiler, fixture("p1", SessionTrigger.CPU, null));

        WebEndpointResponse<?> unknown = endpoint.profile("p1", "collapsed", null, "request", null, null);
        assertThat(unknown.getStatus()).isEqualTo(400);
        assertThat(((ErrorDescriptor) unknown.getBody()).message())
                .isEqualTo("Unknown group 'request': use none, thread or endpoint");
        // The fixture recorded neither requests nor threads: each grouping says so, as a 404 with the reason.
        WebEndpointResponse<?> byEndpoint = endpoint.profile("p1", "text", null, "endpoint", null, null);
        assertThat(byEndpoint.getStatus()).isEqualTo(404);
        assertThat(((ErrorDescriptor) byEndpoint.getBody()).message()).startsWith("Profile 'p1' has no endpoints");
        WebEndpointResponse<?> byThread = endpoint.profile("p1", null, null, "thread", null, null);
        assertThat(((ErrorDescriptor) byThread.getBody()).message()).contains("recorded without threads");
        assertThat(endpoint.profile("p1", "collapsed", null, "none", null, null).getStatus()).isEqualTo(200);
        WebEndpointResponse<?> jfr = endpoint.profile("p1", "jfr", null, "none", null, null);
        assertThat(((ErrorDescriptor) jfr.getBody()).message()).startsWith("group=none does not apply to format=jfr");
    }

    @Test
    void aProfileWithoutLookbackHasNoLookbackPartInAnyView() throws Exception {
        StoredProfiles.add(profiler, fixture("manual", SessionTrigger.MANUAL, null));

        JsonNode p = json(endpoint.profile("latest", null, null, null, null, null).getBody());
        assertThat(p.path("id").asString()).isEqualTo("manual");
        assertThat(p.path("trigger").asString()).isEqualTo("MANUAL");
        assertThat(p.path("lookback").isNull()).isTrue();
        assertThat(p.path("tree").path("total").asLong()).isEqualTo(100);
        assertThat(text(endpoint.profile("manual", "text", "only", null, null, null)))
                .contains("Look-back: none in this profile\n");
        assertThat(text(endpoint.profile("manual", "html", null, null, null, null)))
                .contains("CPU profile manual (MANUAL, async-profiler, 100 samples)");
    }

    @Test
    void theTextFormatSummarisesTheProfileBeforeItsTree() throws Exception {
        StoredProfiles.add(profiler, fixture("p1", SessionTrigger.CPU, lookback()));

        WebEndpointResponse<?> response = endpoint.profile("latest", "text", "exclude", null, null, null);

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getContentType()).hasToString("text/plain;charset=UTF-8");
        String text = text(response);
        assertThat(text).startsWith("Profile p1 (CPU)  2026-11-23T10:00:10Z .. 2026-11-23T10:00:13Z\n"
                + "Engine: async-profiler (perf_events), every 10 ms, CPU 87.5% while recording\n"
                + "Samples: 100, 5 (5.0%) cut at the root (their callers are unknown: see the notes)\n"
                + "Hot methods (self time; total = samples through it):\n"
                + "   60.00% self   80.00% total        60  app.Burner.burn\n"
                + "   25.00% self   25.00% total        25  app.Burner.mix\n"
                + "   15.00% self   15.00% total        15  app.Io.read\n"
                + "Where the CPU went: 5.5s of process CPU time;  application 80.0%  gc 10.0%  jit 5.0%"
                + "  profiler 2.0%  jvm-other 3.0%\n"
                + "Skipped jfr-cpu-time: needs JDK 25\n"
                + "Note: 2 samples lost\n"
                + "Look-back: 20 samples every 20 ms from 2026-11-23T10:00:05Z .. 2026-11-23T10:00:10Z, before the "
                + "session; left out below (lookback=include adds them)\n"
                + "Look-back note: fixture look-back note\n"
                + "Utilization 67% of 1.5 CPUs; bottleneck 83% of the time at least one thread ran (between 80% and "
                + "90%)\n"
                + "Threads running at once:  0: 0.5s  1: 1.0s  2: 1.5s\n"
                + "    95.5% of a core  CPU_BOUND      burner-1\n"
                + "    45.0% of a core  MIXED          mixer\n"
                + "     5.0% of a core  MOSTLY_WAITING reader\n\n");
        // Then the tree, the session's samples only in this view.
        String tree = text.substring(text.indexOf("\n\n") + 2);
        assertThat(tree).contains("100.00%  all").contains(" 80.00%  " + BURN).contains(" 20.00%  " + MIX)
                .contains(" 15.00%  " + READ).doesNotContain(WARM);
        assertThat(text.indexOf("Hot methods")).isLessThan(text.indexOf("100.00%  all"));

        // One sample count in every format: the session's 100; the look-back's weight is said apart.
        String included = text(endpoint.profile("latest", "text", null, null, null, null));
        assertThat(included).contains("Samples: 100, ").contains("the tree below weighs ")
                .contains(", the look-back's samples included\n").doesNotContainPattern("Samples: (?!100,)");
        assertThat(json(endpoint.profile("latest", "json", null, null, null, null).getBody()).path("samples")
                .asLong()).isEqualTo(100);
        assertThat(text(endpoint.profile("latest", "html", null, null, null, null))).contains("100 samples");
    }

    @Test
    void theHtmlFormatIsASelfContainedFlameGraphTitledWithTheProfile() throws Exception {
        StoredProfiles.add(profiler, fixture("p1", SessionTrigger.CPU, lookback()));

        WebEndpointResponse<?> response = endpoint.profile("p1", "html", null, null, null, null);

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getContentType()).hasToString("text/html;charset=UTF-8");
        String html = text(response);
        // The page's frame names are prefix-compressed (FlameGraphRendererTest reads them back); its title is the
        // endpoint's.
        assertThat(html).startsWith("<!DOCTYPE html>")
                .contains("<h1>CPU profile p1 (CPU, async-profiler, 100 samples, with 20 look-back samples)</h1>")
                .contains("const cpool = [\n'all',").doesNotContain("src=\"http");
        assertThat(text(endpoint.profile("p1", "html", "exclude", null, null, null)))
                .contains("<h1>CPU profile p1 (CPU, async-profiler, 100 samples, look-back left out)</h1>");
        assertThat(text(endpoint.profile("p1", "html", "only", null, null, null)))
                .contains("<h1>CPU profile p1 (CPU, async-profiler, 100 samples, look-back only)</h1>");
    }

    @Test
    void formatsAreCaseInsensitiveAndUnknownOnesAre400NamingEveryFormat() throws Exception {
        StoredProfiles.add(profiler, fixture("p1", SessionTrigger.CPU, null));

        assertThat(endpoint.profile("p1", " Collapsed ", null, null, null, null).getStatus()).isEqualTo(200);
        assertThat(endpoint.profile("p1", "", null, null, null, null).getContentType()).hasToString("application/json");
        WebEndpointResponse<?> pdf = endpoint.profile("p1", "pdf", null, null, null, null);
        assertThat(pdf.getStatus()).isEqualTo(400);
        assertThat(pdf.getContentType()).hasToString("application/json");
        assertThat(pdf.getBody()).isEqualTo(new ErrorDescriptor(400, "Bad Request",
                "Unknown format 'pdf': use json, text, collapsed, html, pprof or jfr", null));
        WebEndpointResponse<?> unknown = endpoint.profile("no-such-profile", null, null, null, null, null);
        assertThat(unknown.getStatus()).isEqualTo(404);
        assertThat(((ErrorDescriptor) unknown.getBody()).message()).as("a profile exists: no 'none recorded yet'")
                .isEqualTo("No profile 'no-such-profile'");
    }

    @Test
    void beyondTheConcurrentRendersAProfileIs503AndTheStatusIsAnsweredAllTheSame() throws Exception {
        StoredProfiles.add(profiler, fixture("p1", SessionTrigger.CPU, null));
        CpuProfilerEndpoint busy = new CpuProfilerEndpoint(profiler, () -> null, () -> false,
                new ProfileRenders(1 << 20, 0, (p, f, v) -> new byte[0]));

        for (String format : List.of("html", "pprof", "text")) {
            WebEndpointResponse<?> r = busy.profile("p1", format, null, null, null, null);
            assertThat(r.getStatus()).isEqualTo(503);
            assertThat(r.getContentType()).isEqualTo(MimeType.valueOf("application/json"));
            assertThat(r.getBody()).isEqualTo(new ErrorDescriptor(503, "Service Unavailable", "Profile 'p1' cannot "
                    + "be rendered now: other renders are under way; try again in a second", null));
        }
        // The JFR recording is a file, streamed, never rendered: no limit applies (here: it has none).
        assertThat(busy.profile("p1", "jfr", null, null, null, null).getStatus()).isEqualTo(404);
        // The status's view of the latest profile is rendered aside.
        assertThat(json(busy.status()).path("latestProfile").path("id").asString()).isEqualTo("p1");
    }

    @Test
    void jfrIs404WhenTheEngineLeftNoRecordingAnd400WithALookbackView() {
        StoredProfiles.add(profiler, fixture("p1", SessionTrigger.CPU, null));

        WebEndpointResponse<?> none = endpoint.profile("p1", "jfr", null, null, null, null);
        assertThat(none.getStatus()).isEqualTo(404);
        ErrorDescriptor error = (ErrorDescriptor) none.getBody();
        assertThat(error.status()).isEqualTo(404);
        assertThat(error.error()).isEqualTo("Not Found");
        assertThat(error.message()).isEqualTo("Profile 'p1' has no JFR recording: its engine (async-profiler) "
                + "handed over no file, or it was not kept (larger than retained-size, or its disk down to "
                + "min-free-disk-space)");

        WebEndpointResponse<?> only = endpoint.profile("p1", "jfr", "only", null, null, null);
        assertThat(only.getStatus()).isEqualTo(400);
        assertThat(((ErrorDescriptor) only.getBody()).message()).startsWith(
                "lookback=only does not apply to format=jfr");
        assertThat(endpoint.profile("p1", "jfr", "exclude", null, null, null).getStatus()).isEqualTo(400);
        assertThat(endpoint.profile("p1", "jfr", "include", null, null, null).getStatus()).isEqualTo(404);
    }

    /** A link planted where a recording was could name any file the application may read: it is not served. */
    @Test
    void jfrServesTheRecordingFileButNeverThroughALink() throws Exception {
        Path recording = Files.writeString(root.resolve("p1.jfr"), "pretend JFR");
        Path secret = Files.writeString(root.resolve("secret.txt"), "the application's secret");
        Path link = Files.createSymbolicLink(root.resolve("p2.jfr"), secret);
        StoredProfiles.add(profiler, fixture("p1", SessionTrigger.CPU, null, recording));
        StoredProfiles.add(profiler, fixture("p2", SessionTrigger.CPU, null, link));

        WebEndpointResponse<?> served = endpoint.profile("p1", "jfr", null, null, null, null);
        assertThat(served.getStatus()).isEqualTo(200);
        assertThat(served.getContentType()).isEqualTo(MimeType.valueOf("application/octet-stream"));
        assertThat(((org.springframework.core.io.Resource) served.getBody()).contentLength()).isEqualTo(11);
        try (java.io.InputStream in = ((org.springframework.core.io.Resource) served.getBody()).getInputStream()) {
            assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("pretend JFR");
        }
        WebEndpointResponse<?> linked = endpoint.profile("p2", "jfr", null, null, null, null);
        assertThat(linked.getStatus()).isEqualTo(404);
        assertThat(((ErrorDescriptor) linked.getBody()).message()).isEqualTo(
                "Profile 'p2' has no JFR recording any more").doesNotContain("secret");
    }

    @Test
    void pprofIsTheGzippedProfile() throws Exception {
        StoredProfiles.add(profiler, fixture("p1", SessionTrigger.CPU, null));

        WebEndpointResponse<?> pprof = endpoint.profile("p1", "pprof", "exclude", null, null, null);

        assertThat(pprof.getStatus()).isEqualTo(200);
        assertThat(pprof.getContentType()).isEqualTo(MimeType.valueOf("application/octet-stream"));
        byte[] bytes = (byte[]) pprof.getBody();
        assertThat(bytes).startsWith((byte) 0x1f, (byte) 0x8b);
        assertThat(bytes).isEqualTo(ProfileFormat.PPROF.bytes(profiler.profile("p1").orElseThrow(),
                ProfileView.of(LookbackView.EXCLUDE)));
    }

    @Test
    void anOnDemandStartAnswersTheSessionThen429WhileItRunsAnd503WhenNothingCanRecord() {
        WebEndpointResponse<?> started = endpoint.start("2m");

        assertThat(started.getStatus()).isEqualTo(200);
        assertThat(started.getContentType()).isEqualTo(MimeType.valueOf("application/json"));
        CpuProfilerStatus.Session session = ((SessionDescriptor) started.getBody()).session();
        // The id: its time, its trigger, this profiler's sequence and its instance part.
        assertThat(session.id()).matches("20261123T100030Z-manual-1-[0-9a-z]{8}");
        assertThat(session).isEqualTo(new CpuProfilerStatus.Session(session.id(),
                SessionTrigger.MANUAL, "fixture", Instant.parse("2026-11-23T10:00:30Z"), Duration.ofMinutes(2),
                Duration.ZERO, 7));
        JsonNode wire = json(started.getBody());
        assertThat(List.of(wire.path("id").asString(), wire.path("trigger").asString(), wire.path("engine").asString(),
                wire.path("startedAt").asString(), wire.path("duration").asString(), wire.path("elapsed").asString(),
                wire.path("samples").asString())).containsExactly(session.id(), "MANUAL", "fixture",
                        "2026-11-23T10:00:30Z", "PT2M", "PT0S", "7");
        assertThat(json(endpoint.status()).path("state").asString()).isEqualTo("PROFILING");

        WebEndpointResponse<?> second = endpoint.start(null);
        assertThat(second.getStatus()).isEqualTo(429);
        assertThat(((ErrorDescriptor) second.getBody()).running()).isEqualTo(session);
        // When to try again: the running session's duration less its elapsed time (2 minutes on this fixed clock).
        assertThat(json(second.getBody()).path("running").path("elapsed").asString()).isEqualTo("PT0S");
        assertThat(launches).hasValue(1);

        profiler.cancelActive("the test is over");
        // The session ends on its own thread, and the policy records the end just after: wait for that.
        await().atMost(Duration.ofSeconds(10)).until(() -> profiler.activeSession().isEmpty());
        launchFailure.set(new IllegalStateException("no engine here"));
        WebEndpointResponse<?> unavailable = endpoint.startWithDefaults();
        assertThat(unavailable.getStatus()).isEqualTo(503);
        assertThat(((ErrorDescriptor) unavailable.getBody()).message()).startsWith("The profile could not start: ")
                .contains("no engine here");
    }

    @Test
    void theMetersShowTheLatestProfilesRatios() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new CpuProfilerMeterBinder(profiler).bindTo(registry);
        assertThat(registry.find("profiler.cpu.utilization").gauge().value()).isNaN();

        StoredProfiles.add(profiler, fixture("p1", SessionTrigger.CPU, null));

        assertThat(registry.find("profiler.cpu.utilization").gauge().value()).isEqualTo(2.0 / 3);
        assertThat(registry.find("profiler.cpu.bottleneck").gauge().value()).isEqualTo(5.0 / 6);
        assertThat(registry.find("profiler.cpu.breakdown").tag("group", "application").gauge().value())
                .isEqualTo(0.8);
        assertThat(registry.find("profiler.cpu.breakdown").tag("group", "gc").gauge().value()).isEqualTo(0.1);
        assertThat(registry.find("profiler.cpu.effective.count").gauge().value()).isEqualTo(1.5);
    }

    // ---- the fixture ----

    /**
     * 100 session samples: {@code Thread.run > burn} 60, {@code > burn > mix} 20, {@code > read} 15, and 5 whose
     * stacks the engine cut at the root ({@code [truncated] > mix}).
     */
    static Profile fixture(String id, SessionTrigger trigger, LookbackSnapshot lookback) {
        return fixture(id, trigger, lookback, null);
    }

    /** As {@link #fixture(String, SessionTrigger, LookbackSnapshot)}, its recording kept at {@code jfrFile}. */
    static Profile fixture(String id, SessionTrigger trigger, LookbackSnapshot lookback, Path jfrFile) {
        StackTree tree = new StackTree(64, 10_000, false);
        tree.accept(stack(RUN, BURN), "burner-1", 60);
        tree.accept(stack(RUN, BURN, MIX), "mixer", 20);
        tree.accept(stack(RUN, READ), "reader", 15);
        tree.accept(List.of(new Frame(StackTree.TRUNCATED, FrameKind.UNKNOWN), Frame.java(MIX)), "mixer", 5);
        ConcurrencyReport concurrency = new ConcurrencyReport(Duration.ofSeconds(3), Duration.ofMillis(100), 1.5,
                List.of(new ConcurrencyReport.Bin(0, 0.5), new ConcurrencyReport.Bin(1, 1.0), new ConcurrencyReport.Bin(2, 1.5)),
                4.0 / 3, 2.0 / 3, 5.0 / 6, 0.8, 0.9,
                List.of(new ThreadCpu(41, "burner-1", 95.456, Duration.ofMillis(2864), ThreadCpu.Label.CPU_BOUND),
                        new ThreadCpu(42, "mixer", 45.0, Duration.ofMillis(1350), ThreadCpu.Label.MIXED),
                        new ThreadCpu(43, "reader", 5.0, Duration.ofMillis(150), ThreadCpu.Label.MOSTLY_WAITING)),
                12);
        CpuBreakdown breakdown = new CpuBreakdown(Duration.ofMillis(5500), CpuBreakdown.SOURCE_PROC, List.of(
                new CpuBreakdown.Share(CpuBreakdown.Group.APPLICATION, Duration.ofMillis(4400), 80.0),
                new CpuBreakdown.Share(CpuBreakdown.Group.GC, Duration.ofMillis(550), 10.0),
                new CpuBreakdown.Share(CpuBreakdown.Group.JIT, Duration.ofMillis(275), 5.0),
                new CpuBreakdown.Share(CpuBreakdown.Group.PROFILER, Duration.ofMillis(110), 2.0),
                new CpuBreakdown.Share(CpuBreakdown.Group.JVM_OTHER, Duration.ofMillis(165), 3.0)));
        return ProfileBuilder.profile(id, trigger, tree.snapshot()).engine(EngineChoice.ASYNC_PROFILER, "perf_events")
                .fallbacks(List.of(new Profile.EngineFallback("jfr-cpu-time", "needs JDK 25")))
                .notes(List.of("2 samples lost")).between(STARTED, ENDED).lostSamples(2).jfrFile(jfrFile)
                .cpu(new Profile.CpuUse(87.456, concurrency, breakdown)).lookback(lookback).build();
    }

    /** 20 look-back samples at 20 ms, weighing 40 in the session's 10 ms unit, all in {@code warmUp}. */
    static LookbackSnapshot lookback() {
        StackTree tree = new StackTree(64, 10_000, false);
        tree.accept(stack(RUN, WARM), "burner-1", 40);
        return new LookbackSnapshot(STARTED.minusSeconds(5), STARTED, Duration.ofMillis(20), Duration.ofMillis(10),
                20, tree.snapshot(), List.of("fixture look-back note"));
    }

    private static List<Frame> stack(String... names) {
        return java.util.Arrays.stream(names).map(Frame::java).toList();
    }

    /** A container's view with cgroup v2 at /sys/fs/cgroup, its own cgroup "/", a quota and a CPU counter. */
    static void fakeCgroupV2Container(Path root, String cpuMax, String cpusAllowed) throws IOException {
        write(root, "proc/self/cgroup", "0::/\n");
        write(root, "proc/self/mountinfo", "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n");
        write(root, "proc/self/status", "Name:\tjava\nCpus_allowed_list:\t" + cpusAllowed + "\n");
        write(root, "sys/fs/cgroup/cgroup.type", "domain\n");
        write(root, "sys/fs/cgroup/cpu.max", cpuMax + "\n");
        write(root, "sys/fs/cgroup/cpu.stat", "usage_usec 1000\nuser_usec 1000\nsystem_usec 0\n");
    }

    private static void write(Path root, String relative, String content) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    /** A JSON answer as a client reads it: a profile comes as the bytes its format wrote, the status as a record. */
    private static JsonNode json(Object body) {
        return body instanceof byte[] bytes ? JSON.readTree(bytes) : JSON.readTree(JSON.writeValueAsString(body));
    }

    private static String text(WebEndpointResponse<?> response) {
        assertThat(response.getStatus()).isEqualTo(200);
        return (String) response.getBody();
    }

    /** Every root-to-leaf path of a JSON tree with its self weight, as collapsed stacks write them. */
    private static List<String> collapsed(JsonNode tree) {
        List<String> out = new ArrayList<>();
        collect(tree, "", out);
        return out;
    }

    private static void collect(JsonNode node, String path, List<String> out) {
        String here = node.path("frame").asString().equals("all") ? "" : (path.isEmpty() ? "" : path + ";")
                + node.path("frame").asString();
        if (node.path("self").asLong() > 0) {
            out.add(here + " " + node.path("self").asLong());
        }
        for (JsonNode child : node.path("children")) {
            collect(child, here, out);
        }
    }

    /**
     * The engine the on-demand start records with, through the production sessions: it records until stopped and
     * reports 7 samples so far, or refuses with the reason the test set.
     */
    private final class FixtureEngine implements ProfilingEngine {

        @Override
        public String id() {
            return "fixture";
        }

        @Override
        public EngineRecording start(EngineSettings settings, StackSink sink) throws EngineUnavailableException {
            RuntimeException failure = launchFailure.get();
            if (failure != null) {
                throw new EngineUnavailableException("fixture", failure.getMessage());
            }
            launches.incrementAndGet();
            return new EngineRecording() {
                @Override
                public String engineId() {
                    return "fixture";
                }

                @Override
                public long samplesSoFar() {
                    return 7;
                }

                @Override
                public EngineRecording.Result stop() {
                    return new EngineRecording.Result("fixture", "fixture", 7, 0, null, List.of(), List.of());
                }

                @Override
                public void cancel() {
                }
            };
        }
    }
}
