package dev.cpuprofiler.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import dev.cpuprofiler.autoconfigure.StoredProfiles;
import dev.cpuprofiler.internal.compare.ProfileComparator;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /{id}?compare=reference|<id>|none} over real HTTP, on profiles put in the store: a 10-s reference of normal
 * ({@code REFERENCE}), a 30-s profile in which each {@code GET /ledger} request costs 10x at the same rate (compared
 * with it, as the profiler stores it) and a third profile to compare with by id. JSON and text show the stored
 * comparison unless {@code none}; collapsed, html and pprof change only when {@code compare} is given; every refusal
 * is a JSON reason.
 */
@SpringBootTest(classes = EndpointTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=cpuprofiler",
            "profiler.cpu.enabled=false"
        })
@DirtiesContext
class CpuProfilerEndpointCompareTest {

    private static final String PATH = "/actuator/cpuprofiler/";
    private static final String RUN = "java.lang.Thread.run";
    private static final String LEDGER = "com.acme.Ledger.sum";
    private static final String AUDIT = "com.acme.Ledger.audit";
    private static final String ORBIT = "com.acme.Orbit.step";
    private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

    @LocalServerPort
    int port;

    @Autowired
    CpuProfiler profiler;

    private Http http;

    /** ref: /ledger 200 req of 20 ms in 10 s; cost: 600 of 200 ms in 30 s (in audit, new); other: no /ledger. */
    @BeforeEach
    void storeTheProfiles() {
        http = new Http(port);
        if (profiler.profile("cost").isPresent()) {
            return;
        }
        Profile reference = StoredProfiles.add(profiler, profile("ref", SessionTrigger.REFERENCE, 10, 200,
                stack(400, "GET /ledger", RUN, LEDGER), stack(450, "GET /orbit", RUN, ORBIT)));
        StoredProfiles.add(profiler, profile("other", SessionTrigger.MANUAL, 30, 0,
                stack(1350, "GET /orbit", RUN, ORBIT)));
        Profile cost = profile("cost", SessionTrigger.CPU, 30, 600, stack(2400, "GET /ledger", RUN, LEDGER),
                stack(9600, "GET /ledger", RUN, LEDGER, AUDIT), stack(1350, "GET /orbit", RUN, ORBIT));
        StoredProfiles.add(profiler, cost.withComparison(ProfileComparator.compare(reference, cost)));
        // Compared with a reference the store no longer keeps.
        Profile.Comparison fromGone = ProfileComparator.compare(reference, cost);
        StoredProfiles.add(profiler, profile("orphan", SessionTrigger.CPU, 30, 600, stack(12000, "GET /ledger", RUN,
                LEDGER), stack(1350, "GET /orbit", RUN, ORBIT)).withComparison(new Profile.Comparison("gone",
                        fromGone.endpoints(), fromGone.methods())));
    }

    @Test
    void jsonAndTextShowTheStoredComparisonUnlessNoneAndCompareWithAnyProfileById() {
        JsonNode stored = http.json(PATH + "cost");
        assertThat(stored.path("comparison").path("reference").asString()).isEqualTo("ref");
        JsonNode ledger = stored.path("comparison").path("endpoints").get(0);
        assertThat(ledger.path("endpoint").asString()).isEqualTo("GET /ledger");
        assertThat(ledger.path("verdict").asString()).isEqualTo("COST");
        assertThat(ledger.path("cpuPerRequestMillis").path("ratio").asDouble()).isEqualTo(10.0);
        assertThat(stored.path("comparison").path("methods").get(0).path("method").asString()).isEqualTo(AUDIT);
        assertThat(http.json(PATH + "cost?compare=reference").path("comparison")).isEqualTo(stored.path("comparison"));
        assertThat(http.json(PATH + "cost?compare=none").path("comparison").isNull()).isTrue();
        JsonNode byId = http.json(PATH + "cost?compare=other").path("comparison");
        assertThat(byId.path("reference").asString()).isEqualTo("other");
        assertThat(byId.path("endpoints")).extracting(e -> e.path("endpoint").asString() + " " + e.path("verdict")
                .asString()).containsExactly("GET /ledger NEW", "GET /orbit UNCHANGED");

        String text = http.get(PATH + "cost?format=text").body();
        assertThat(text).startsWith("What changed, compared with profile ref").contains(
                "  GET /ledger: each request costs 10.0x more (20.0 → 200 ms CPU) at the same rate\n");
        assertThat(http.get(PATH + "cost?format=text&compare=none").body()).startsWith("Profile cost (CPU)");
        assertThat(http.get(PATH + "cost?format=text&compare=other").body())
                .startsWith("What changed, compared with profile other")
                .contains("  GET /ledger: new, not in the reference: 20 requests a second at 200 ms CPU each\n");
    }

    @Test
    void collapsedHtmlAndPprofDrawTheReferenceOnlyWhenAsked() throws IOException {
        assertThat(http.get(PATH + "cost?format=collapsed").body().lines()).contains(RUN + ";" + LEDGER + " 2400");
        // The 10-s reference's counts weigh 3x beside the 30-s profile's.
        assertThat(http.get(PATH + "cost?format=collapsed&compare=reference").body().lines()).containsExactly(
                RUN + ";" + LEDGER + " 1200 2400", RUN + ";" + LEDGER + ";" + AUDIT + " 0 9600",
                RUN + ";" + ORBIT + " 1350 1350");

        assertThat(http.get(PATH + "cost?format=html").body()).contains("const maxdiff = -1;");
        HttpResponse<String> diff = http.get(PATH + "cost?format=html&compare=reference");
        assertThat(diff.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
                .startsWith("text/html"));
        assertThat(diff.body()).contains("const maxdiff = 1200;", "against ref (REFERENCE, 850 samples)");

        assertThat(pprofStrings(PATH + "cost?format=pprof")).contains("cpuprofiler profile cost (CPU")
                .doesNotContain("ref (REFERENCE");
        assertThat(pprofStrings(PATH + "cost?format=pprof&compare=reference"))
                .contains("cpuprofiler profile ref (REFERENCE", ", the base profile cost is compared with");
    }

    @Test
    void whatCannotBeComparedIsA404WithTheReasonAndJfrRefusesCompare() {
        assertRefused(PATH + "cost?compare=nope", 404,
                "No profile 'nope' to compare profile 'cost' with: use reference, none or a kept profile's id");
        assertRefused(PATH + "ref?compare=reference", 404, "Profile 'ref' has no reference to compare with: it is "
                + "a reference itself; compare=<id> compares it with any kept profile");
        assertRefused(PATH + "other?format=collapsed&compare=reference", 404, "Profile 'other' has no reference to "
                + "compare with: no reference of normal had been recorded when it started; compare=<id> compares it "
                + "with any kept profile");
        assertRefused(PATH + "orphan?format=html&compare=reference", 404, "The reference 'gone' profile 'orphan' was "
                + "compared with is no longer kept; compare=<id> compares it with a kept profile");
        assertRefused(PATH + "cost?format=collapsed&group=thread&compare=reference", 404, "Profile 'cost' was "
                + "recorded without threads: profiler.cpu.group-by-thread=true records them");
        assertRefused(PATH + "cost?format=jfr&compare=reference", 400, "compare=reference does not apply to "
                + "format=jfr: the recording is the session's own as the engine wrote it (every thread, never "
                + "grouped, the look-back part never in it, compared with nothing); leave lookback, group, thread and "
                + "compare out, or use another format");
    }

    private void assertRefused(String path, int status, String message) {
        HttpResponse<String> refused = http.get(path);
        assertThat(refused.statusCode()).as(path).isEqualTo(status);
        assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
                .contains("json"));
        assertThat(Http.parse(refused.body()).path("message").asString()).isEqualTo(message);
    }

    /** The pprof's text (its string table), gunzipped: names and comments are stored as they are. */
    private String pprofStrings(String path) throws IOException {
        HttpResponse<byte[]> pprof = http.bytes(path);
        assertThat(pprof.statusCode()).isEqualTo(200);
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(pprof.body()))) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private record Stack(long weight, String endpoint, List<String> frames) {
    }

    private static Stack stack(long weight, String endpoint, String... frames) {
        return new Stack(weight, endpoint, List.of(frames));
    }

    /** A profile at 10 ms a sample: /orbit 15 requests a second, /ledger {@code ledgerRequests} in all. */
    private static Profile profile(String id, SessionTrigger trigger, int seconds, long ledgerRequests,
            Stack... stacks) {
        StackTree tree = new StackTree(64, 100_000, false);
        StackTree byEndpoint = new StackTree(65, 100_000, false);
        long ledger = 0;
        long orbit = 0;
        for (Stack s : stacks) {
            List<Frame> frames = s.frames().stream().map(Frame::java).toList();
            tree.accept(frames, "worker-1", s.weight());
            List<Frame> grouped = new ArrayList<>();
            grouped.add(new Frame(s.endpoint(), FrameKind.ENDPOINT));
            grouped.addAll(frames);
            byEndpoint.accept(grouped, "worker-1", s.weight());
            if (s.endpoint().equals("GET /ledger")) {
                ledger += s.weight();
            } else {
                orbit += s.weight();
            }
        }
        long all = ledger + orbit;
        List<EndpointShare> endpoints = new ArrayList<>();
        if (ledgerRequests > 0) {
            endpoints.add(new EndpointShare("GET /ledger", ledger, 100.0 * ledger / all, ledgerRequests,
                    ledger * 10.0 / ledgerRequests));
        }
        endpoints.add(new EndpointShare("GET /orbit", orbit, 100.0 * orbit / all, 15L * seconds, orbit * 10.0 / 15
                / seconds));
        Instant start = START.plusSeconds(trigger == SessionTrigger.REFERENCE ? 0 : 3600);
        return ProfileBuilder.profile(id, trigger, tree.snapshot())
                .engine(EngineChoice.JFR_EXECUTION, "jdk.ExecutionSample").between(start, start.plusSeconds(seconds))
                .endpoints(endpoints, byEndpoint.snapshot()).build();
    }
}
