package dev.cpuprofiler.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.format.ProfileView.Group;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code ?group=}: the same samples, grouped by nothing, by thread or by endpoint, in every format. */
class ProfileViewGroupTest {

    private static final String RUN = "app.Main.run";
    private static final String ALPHA = "app.Kernels.alpha";
    private static final String BETA = "app.Kernels.beta";

    @Test
    void aProfileWithEndpointsGroupsByEndpointOrByNothing() {
        Profile p = profile(false);

        assertThat(collapsed(p, null)).containsExactlyInAnyOrder(RUN + ";" + ALPHA + " 30", RUN + ";" + BETA + " 60",
                RUN + " 10");
        assertThat(collapsed(p, Group.NONE)).isEqualTo(collapsed(p, null));
        assertThat(collapsed(p, Group.ENDPOINT)).containsExactlyInAnyOrder("[GET /alpha];" + RUN + ";" + ALPHA + " 30",
                "[GET /beta];" + RUN + ";" + BETA + " 60", "[no request];" + RUN + " 10");
        assertThat(ProfileView.of(LookbackView.INCLUDE, Group.THREAD).missing(p)).hasValueSatisfying(
                why -> assertThat(why).contains("recorded without threads", "profiler.cpu.group-by-thread=true"));
        assertThat(ProfileView.of(LookbackView.INCLUDE, Group.ENDPOINT).missing(p)).isEmpty();

        JsonNode json = json(p, Group.ENDPOINT);
        assertThat(json.path("group").asString()).isEqualTo("endpoint");
        assertThat(json.path("endpoints").get(0).path("endpoint").asString()).isEqualTo("GET /beta");
        assertThat(json.path("tree").path("children").get(0).path("frame").asString()).isEqualTo("[GET /beta]");
        assertThat(new String(Written.bytes(ProfileFormat.TEXT, p, ProfileView.of(LookbackView.INCLUDE,
                Group.ENDPOINT)), StandardCharsets.UTF_8)).contains("[GET /beta]", "[GET /alpha]");
        // The flame graph's names are prefix-compressed: the first endpoint whole, the next from where it differs.
        assertThat(new String(Written.bytes(ProfileFormat.HTML, p, ProfileView.of(LookbackView.INCLUDE,
                Group.ENDPOINT)), StandardCharsets.UTF_8)).contains("[GET /alpha]'", "'&beta]'");

        // pprof: the endpoint is a label on every sample, not a frame, grouped or not.
        for (Group g : new Group[] {null, Group.NONE, Group.ENDPOINT}) {
            PprofDecoded pprof = PprofDecoded.decode(Written.bytes(ProfileFormat.PPROF, p,
                    ProfileView.of(LookbackView.INCLUDE, g)));
            assertThat(pprof.samples()).allSatisfy(s -> {
                assertThat(s.labels()).containsKey("endpoint");
                assertThat(s.framesLeafFirst()).noneMatch(f -> f.startsWith("["));
            });
            assertThat(pprof.samples().stream().filter(s -> s.framesLeafFirst().get(0).equals(ALPHA))
                    .map(s -> s.labels().get("endpoint")).collect(Collectors.toSet())).containsExactly("GET /alpha");
        }
    }

    @Test
    void aProfileRecordedByThreadShowsThreadsByDefaultAndDropsThemForNone() {
        Profile p = profile(true);

        assertThat(collapsed(p, null)).contains("[worker-*];" + RUN + ";" + ALPHA + " 30");
        assertThat(collapsed(p, Group.THREAD)).isEqualTo(collapsed(p, null));
        assertThat(collapsed(p, Group.NONE)).containsExactlyInAnyOrder(RUN + ";" + ALPHA + " 30",
                RUN + ";" + BETA + " 60", RUN + " 10");
        assertThat(json(p, null).path("group").asString()).isEqualTo("thread");
        assertThat(ProfileView.of(LookbackView.INCLUDE, Group.THREAD).missing(p)).isEmpty();
    }

    @Test
    void withoutEndpointsGroupByEndpointSaysWhy() {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(List.of(Frame.java(RUN)), "main", 5);
        Profile p = ProfileBuilder.profile("p2", SessionTrigger.MANUAL, tree.snapshot())
                .notes(List.of("no endpoints: nothing reports requests to the profiler")).build();
        assertThat(ProfileView.of(LookbackView.INCLUDE, Group.ENDPOINT).missing(p))
                .hasValue("Profile 'p2' has no endpoints: nothing reports requests to the profiler");
        assertThat(Group.of("Endpoint")).hasValue(Group.ENDPOINT);
        assertThat(Group.of("request")).isEmpty();
    }

    /** 30 samples of alpha under GET /alpha, 60 of beta under GET /beta, 10 outside any request. */
    private static Profile profile(boolean byThread) {
        StackTree tree = new StackTree(64, 1000, byThread);
        StackTree byEndpoint = new StackTree(65, 1000, false);
        add(tree, byEndpoint, "GET /alpha", 30, RUN, ALPHA);
        add(tree, byEndpoint, "GET /beta", 60, RUN, BETA);
        add(tree, byEndpoint, "no request", 10, RUN);
        return ProfileBuilder.profile("p1", SessionTrigger.MANUAL, tree.snapshot()).endpoints(List.of(
                new EndpointShare("GET /beta", 60, 60, 20L, 30.0), new EndpointShare("GET /alpha", 30, 30, 20L, 15.0),
                new EndpointShare("[no request]", 10, 10, null, null)), byEndpoint.snapshot()).build();
    }

    private static void add(StackTree tree, StackTree byEndpoint, String endpoint, long weight, String... frames) {
        List<Frame> stack = java.util.Arrays.stream(frames).map(Frame::java).toList();
        tree.accept(stack, "worker-1", weight);
        List<Frame> grouped = new java.util.ArrayList<>();
        grouped.add(new Frame(endpoint, dev.cpuprofiler.FrameKind.ENDPOINT));
        grouped.addAll(stack);
        byEndpoint.accept(grouped, "worker-1", weight);
    }

    private static List<String> collapsed(Profile p, Group g) {
        return new String(Written.bytes(ProfileFormat.COLLAPSED, p, ProfileView.of(LookbackView.INCLUDE, g)),
                StandardCharsets.UTF_8).lines().toList();
    }

    private static JsonNode json(Profile p, Group g) {
        return JsonMapper.shared().readTree(Written.bytes(ProfileFormat.JSON, p, ProfileView.of(LookbackView.INCLUDE,
                g)));
    }
}
