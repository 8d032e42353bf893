package dev.cpuprofiler.format;

import static dev.cpuprofiler.format.ComparedProfiles.AUDIT;
import static dev.cpuprofiler.format.ComparedProfiles.LEDGER;
import static dev.cpuprofiler.format.ComparedProfiles.ORBIT;
import static dev.cpuprofiler.format.ComparedProfiles.POLLER;
import static dev.cpuprofiler.format.ComparedProfiles.RUN;
import static dev.cpuprofiler.format.ComparedProfiles.WARMUP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.Profile.Comparison.Change;
import dev.cpuprofiler.Profile.Comparison.EndpointChange;
import dev.cpuprofiler.Profile.Comparison.Verdict;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.format.ProfileView.Compare;
import dev.cpuprofiler.format.ProfileView.Group;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A profile compared with the reference of normal, in every format ({@code ?compare=}): JSON carries the comparison
 * as the contract shows it, text opens with it in words, collapsed writes both profiles' counts a line, html is the
 * converter's differential flame graph, pprof the reference's own profile; and none of it unless asked, but for JSON
 * and text, which show the stored comparison by default.
 */
class ComparedFormatsTest {

    private static final ProfileView PLAIN = ProfileView.of(LookbackView.INCLUDE);

    private final Profile reference = ComparedProfiles.reference();
    private final Profile cost = ComparedProfiles.cost();
    private final ProfileView againstReference = PLAIN.comparedWith(Compare.with(reference));

    @Test
    void jsonCarriesTheStoredComparisonByDefaultShapedAsTheContractSaysAndNoneLeavesItOut() {
        JsonNode c = json(cost, PLAIN).path("comparison");

        assertThat(names(c)).containsExactly("reference", "endpoints", "methods");
        assertThat(c.path("reference").asString()).isEqualTo("ref");
        JsonNode ledger = endpoint(c, "GET /ledger");
        assertThat(names(ledger)).containsExactly("endpoint", "requestsPerSecond", "cpuPerRequestMillis", "verdict");
        assertThat(names(ledger.path("requestsPerSecond"))).containsExactly("reference", "profile", "ratio");
        assertThat(ledger.path("requestsPerSecond").path("reference").asDouble()).isEqualTo(20.0);
        assertThat(ledger.path("requestsPerSecond").path("profile").asDouble()).isEqualTo(20.0);
        assertThat(ledger.path("cpuPerRequestMillis").path("reference").asDouble()).isEqualTo(20.0);
        assertThat(ledger.path("cpuPerRequestMillis").path("profile").asDouble()).isEqualTo(200.0);
        assertThat(ledger.path("cpuPerRequestMillis").path("ratio").asDouble()).isEqualTo(10.0);
        assertThat(ledger.path("verdict").asString()).isEqualTo("COST");
        assertThat(endpoint(c, "GET /orbit").path("verdict").asString()).isEqualTo("UNCHANGED");
        JsonNode first = c.path("methods").get(0);
        assertThat(names(first)).containsExactly("method", "referencePercent", "percent", "delta");
        assertThat(first.path("method").asString()).isEqualTo(AUDIT);
        assertThat(first.path("referencePercent").asDouble()).isZero();
        assertThat(first.path("percent").asDouble()).isEqualTo(71.11);

        assertThat(json(cost, againstReference).path("comparison")).as("compare=reference: the stored one")
                .isEqualTo(c);
        assertThat(json(cost, PLAIN.comparedWith(Compare.NONE)).path("comparison").isNull()).isTrue();
        assertThat(json(reference, PLAIN).path("comparison").isNull()).as("a reference has none").isTrue();
        assertThat(json(reference, PLAIN).has("comparison")).isTrue();
    }

    @Test
    void jsonComparedWithAnotherProfileSaysWhatChangedFromThatOne() {
        Profile traffic = ComparedProfiles.traffic();

        JsonNode c = json(cost, PLAIN.comparedWith(Compare.with(traffic))).path("comparison");

        assertThat(c.path("reference").asString()).isEqualTo("traffic");
        // 120 → 15 /orbit requests a second: a fall, no growth; /ledger 2 → 20 ms a request at 20 a second.
        assertThat(endpoint(c, "GET /orbit").path("requestsPerSecond").path("ratio").asDouble()).isEqualTo(0.125);
        assertThat(endpoint(c, "GET /orbit").path("verdict").asString()).isEqualTo("UNCHANGED");
        assertThat(endpoint(c, "GET /ledger").path("verdict").asString()).isEqualTo("COST");
    }

    @Test
    void textOpensWithWhatChangedOneSentenceAnEndpointThenTheMethodsThatGrew() {
        String costText = text(cost, PLAIN);
        String trafficText = text(ComparedProfiles.traffic(), PLAIN);

        assertThat(costText).startsWith("What changed, compared with profile ref (requests per second of each, CPU "
                + "per request):\n");
        assertThat(costText).contains("\n  GET /ledger: each request costs 10.0x more (20.0 → 200 ms CPU) at the "
                + "same rate\n");
        assertThat(costText).contains("\n  GET /orbit: unchanged (15 → 15 requests a second, 30.0 → 30.0 ms CPU "
                + "each)\n");
        assertThat(costText).contains("Methods that grew most (self time, % of each profile's samples):\n"
                + "   +71.1 points    0.0% →  71.1%  " + AUDIT + "\n");
        assertThat(costText.indexOf("What changed")).isLessThan(costText.indexOf("Profile cost (CPU)"));
        assertThat(trafficText).contains("\n  GET /orbit: 8.0x the requests (15 → 120 a second) at the same cost "
                + "each\n");
        assertThat(text(cost, PLAIN.comparedWith(Compare.NONE))).startsWith("Profile cost (CPU)");
        assertThat(text(reference, PLAIN)).startsWith("Profile ref (REFERENCE)");
    }

    @Test
    void everyVerdictInWords() {
        // The issue's own sentences.
        assertThat(WhatChangedText.sentence(new EndpointChange("GET /ledger", new Change(20.0, 20.0, 1.0),
                new Change(3.1, 31.6, 10.2), Verdict.COST)))
                .isEqualTo("GET /ledger: each request costs 10.2x more (3.1 → 31.6 ms CPU) at the same rate");
        assertThat(WhatChangedText.sentence(new EndpointChange("GET /orbit", new Change(15.0, 120.0, 8.0),
                new Change(3.5, 3.6, 1.03), Verdict.TRAFFIC)))
                .isEqualTo("GET /orbit: 8.0x the requests (15 → 120 a second) at the same cost each");
        assertThat(WhatChangedText.sentence(new EndpointChange("GET /both", new Change(15.0, 60.0, 4.0),
                new Change(3.0, 9.0, 3.0), Verdict.BOTH)))
                .isEqualTo("GET /both: 4.0x the requests (15 → 60 a second), and each costs 3.0x more (3.0 → 9.0 ms "
                        + "CPU)");
        assertThat(WhatChangedText.sentence(new EndpointChange("GET /new", new Change(null, 12.5, null),
                new Change(null, 4.0, null), Verdict.NEW)))
                .isEqualTo("GET /new: new, not in the reference: 13 requests a second at 4.0 ms CPU each");
        assertThat(WhatChangedText.sentence(new EndpointChange("GET /calm", new Change(2.0, 2.2, 1.1),
                new Change(0.05, 0.06, 1.2), Verdict.UNCHANGED)))
                .isEqualTo("GET /calm: unchanged (2.0 → 2.2 requests a second, 0.05 → 0.06 ms CPU each)");
        // A fall is said with its ratio, never as "the same".
        assertThat(WhatChangedText.sentence(new EndpointChange("GET /quiet", new Change(15.0, 5.0, 0.333),
                new Change(3.0, 3.1, 1.03), Verdict.UNCHANGED)))
                .isEqualTo("GET /quiet: no growth: 0.3x the requests (15 → 5.0 a second), the same cost each");
        assertThat(WhatChangedText.sentence(new EndpointChange("GET /slow", new Change(15.0, 4.0, 0.267),
                new Change(3.0, 30.0, 10.0), Verdict.COST)))
                .isEqualTo("GET /slow: each request costs 10.0x more (3.0 → 30.0 ms CPU), at 0.3x the requests (15 "
                        + "→ 4.0 a second)");
    }

    @Test
    void collapsedComparedWritesTheReferenceAndTheProfileCountsOfEveryStackOfEither() {
        // The reference's 10 s weigh 3x to compare with the profile's 30 s; what only it ran comes last.
        assertThat(collapsed(cost, againstReference)).containsExactly(
                RUN + ";" + LEDGER + " 1200 2400",
                RUN + ";" + LEDGER + ";" + AUDIT + " 0 9600",
                RUN + ";" + ORBIT + " 1350 1350",
                RUN + ";" + POLLER + " 300 150",
                RUN + ";" + WARMUP + " 150 0");
        // The same grouping on both sides.
        assertThat(collapsed(cost, ProfileView.of(LookbackView.INCLUDE, Group.ENDPOINT)
                .comparedWith(Compare.with(reference)))).containsExactly(
                "[GET /ledger];" + RUN + ";" + LEDGER + " 1200 2400",
                "[GET /ledger];" + RUN + ";" + LEDGER + ";" + AUDIT + " 0 9600",
                "[GET /orbit];" + RUN + ";" + ORBIT + " 1350 1350",
                "[no request];" + RUN + ";" + POLLER + " 300 150",
                "[no request];" + RUN + ";" + WARMUP + " 150 0");
        // Not asked, not compared: one count a line, as ever.
        assertThat(collapsed(cost, PLAIN)).containsExactly(RUN + ";" + LEDGER + " 2400",
                RUN + ";" + LEDGER + ";" + AUDIT + " 9600", RUN + ";" + ORBIT + " 1350", RUN + ";" + POLLER + " 150");
    }

    @Test
    void theReferenceScalesBySamplingPeriodAndLengthToWeighPerSecondAsTheProfileDoes() {
        // A 20-s reference at 20 ms a sample: each of its samples is 2 of the profile's, its seconds 2/3 of them.
        Profile slow = ProfileBuilder.profile("slow", SessionTrigger.REFERENCE, tree(100, RUN, ORBIT))
                .between(ComparedProfiles.START, ComparedProfiles.START.plusSeconds(20)).period(Duration.ofMillis(20))
                .build();
        assertThat(collapsed(cost, PLAIN.comparedWith(Compare.with(slow)))).contains(RUN + ";" + ORBIT + " 300 1350");
    }

    @Test
    void htmlComparedIsTheConvertersDifferentialFlameGraphColouredByTheChangeOfSelfTimePerSecond() {
        String page = new String(Written.bytes(ProfileFormat.HTML, cost, againstReference), StandardCharsets.UTF_8);

        // The converter's diff: the largest change of self time (LEDGER's 1200 more), every frame's change before it,
        // U for a frame the reference never reached (AUDIT).
        assertThat(page).contains("const maxdiff = 1200;", "\nd=1200\n", "\nd=U\n", "\nd=-150\n");
        assertThat(page).contains("against ref (REFERENCE, 1000 samples), per second: red more self time, blue "
                + "less, grey as much, yellow not in ref</h1>");
        assertThat(page).as("what only the reference ran has no width here").doesNotContain("Warmup");
        assertThat(page.split("</script", -1).length - 1).as("script ends: the template's two").isEqualTo(2);

        String plain = new String(Written.bytes(ProfileFormat.HTML, cost, PLAIN), StandardCharsets.UTF_8);
        assertThat(plain).contains("const maxdiff = -1;").doesNotContain("\nd=");
    }

    @Test
    void pprofComparedIsTheReferencesOwnProfileInTheSameViewForDiffBase() {
        PprofDecoded base = PprofDecoded.decode(Written.bytes(ProfileFormat.PPROF, cost, againstReference));
        PprofDecoded own = PprofDecoded.decode(Written.bytes(ProfileFormat.PPROF, reference, PLAIN));

        assertThat(base.samples()).isEqualTo(own.samples());
        assertThat(base.samples()).anySatisfy(s -> {
            assertThat(s.framesLeafFirst()).containsExactly(ORBIT, RUN);
            assertThat(s.values()).containsExactly(450L, 4_500_000_000L);
            assertThat(s.labels()).containsEntry("endpoint", "GET /orbit");
        });
        assertThat(base.durationNanos()).isEqualTo(10_000_000_000L);
        assertThat(base.comments()).singleElement().asString().startsWith("cpuprofiler profile ref (REFERENCE")
                .endsWith(", the base profile cost is compared with");
        assertThat(PprofDecoded.decode(Written.bytes(ProfileFormat.PPROF, cost, PLAIN)).comments()).singleElement()
                .asString().startsWith("cpuprofiler profile cost (CPU");
    }

    @Test
    void aViewTheReferenceCannotBeDrawnInIsMissingForTheFormatsThatDrawIt() {
        Profile bare = ProfileBuilder.profile("bare", SessionTrigger.REFERENCE, tree(10, RUN, ORBIT))
                .notes(List.of("no endpoints: nothing reports requests to the profiler"))
                .between(ComparedProfiles.START, ComparedProfiles.START.plusSeconds(10)).build();
        ProfileView byEndpoint = ProfileView.of(LookbackView.INCLUDE, Group.ENDPOINT)
                .comparedWith(Compare.with(bare));

        for (ProfileFormat drawn : List.of(ProfileFormat.COLLAPSED, ProfileFormat.HTML, ProfileFormat.PPROF)) {
            assertThat(byEndpoint.missing(cost, drawn)).hasValue("Profile 'cost' cannot be compared with 'bare' in "
                    + "this view: Profile 'bare' has no endpoints: nothing reports requests to the profiler");
        }
        assertThat(byEndpoint.missing(cost, ProfileFormat.JSON)).as("the comparison's figures take no view").isEmpty();
        assertThat(byEndpoint.missing(cost, ProfileFormat.TEXT)).isEmpty();
    }

    private static dev.cpuprofiler.StackTreeSnapshot tree(long weight, String... frames) {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(java.util.Arrays.stream(frames).map(Frame::java).toList(), "worker-1", weight);
        return tree.snapshot();
    }

    private static JsonNode json(Profile p, ProfileView view) {
        return JsonMapper.shared().readTree(Written.bytes(ProfileFormat.JSON, p, view));
    }

    private static String text(Profile p, ProfileView view) {
        return new String(Written.bytes(ProfileFormat.TEXT, p, view), StandardCharsets.UTF_8);
    }

    private static List<String> collapsed(Profile p, ProfileView view) {
        return new String(Written.bytes(ProfileFormat.COLLAPSED, p, view), StandardCharsets.UTF_8).lines().toList();
    }

    private static JsonNode endpoint(JsonNode comparison, String name) {
        for (JsonNode e : comparison.path("endpoints")) {
            if (e.path("endpoint").asString().equals(name)) {
                return e;
            }
        }
        throw new AssertionError("no endpoint " + name + " in " + comparison);
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.propertyNames().forEach(names::add);
        return names;
    }
}
