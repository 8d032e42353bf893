package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.autoconfigure.StoredProfiles;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Profiles whose stacks are 4000 and 8192 frames deep (max-stack-depth 8192), served over real HTTP by the endpoint:
 * every format answers 200 with every frame, and the status's {@code latestProfile} (the look-back merged in, the tree
 * folded) keeps the whole depth too. The endpoint's JSON goes through Spring Boot's own mapper, with the tree
 * embedded as pre-rendered JSON.
 */
@SpringBootTest(classes = EndpointTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=cpuprofiler",
            "profiler.cpu.enabled=false",
            "profiler.cpu.max-stack-depth=8192"
        })
// Closed afterwards: a cached context would keep its profiler's threads running through every later test.
@DirtiesContext
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CpuProfilerEndpointDeepStacksTest {

    private static final JsonMapper DEEP_JSON = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(
            StreamReadConstraints.builder().maxNestingDepth(40_000).build()).build()).build();

    @LocalServerPort
    int port;

    @Autowired
    CpuProfiler profiler;

    private final List<Frame> stack4000 = stack("a", 4000);
    private final List<Frame> stack8192 = stack("b", 8192);
    private final List<Frame> lookback8192 = stack("c", 8192);

    @BeforeAll
    void storeDeepProfiles() {
        StoredProfiles.add(profiler, profile("deep-4000", tree(stack4000, 90, stack("x", 4000), 10), null));
        StackTree before = new StackTree(8192, 200_000, false);
        before.accept(lookback8192, "worker", 30);
        LookbackSnapshot lookback = new LookbackSnapshot(Instant.parse("2026-11-23T10:00:00Z"),
                Instant.parse("2026-11-23T10:00:10Z"), Duration.ofMillis(10), Duration.ofMillis(10), 30,
                before.snapshot(), List.of());
        StoredProfiles.add(profiler, profile("deep-8192", tree(stack8192, 70, stack("y", 100), 30), lookback));
    }

    @Test
    void aProfile4000FramesDeepComesBackWholeInEveryFormat() {
        Http http = new Http(port);

        HttpResponse<String> json = http.get("/actuator/cpuprofiler/deep-4000?format=json");
        assertThat(json.statusCode()).as(json.body()).isEqualTo(200);
        assertThat(leafPaths(json.body())).contains(names(stack4000));

        HttpResponse<String> text = http.get("/actuator/cpuprofiler/deep-4000?format=text");
        assertThat(text.statusCode()).isEqualTo(200);
        assertThat(text.body().lines().filter(l -> l.contains("app.a.Deep.f"))).hasSize(3998);
        assertThat(text.body()).contains("app.a.Deep.leaf");

        HttpResponse<String> collapsed = http.get("/actuator/cpuprofiler/deep-4000?format=collapsed");
        assertThat(collapsed.statusCode()).isEqualTo(200);
        assertThat(collapsed.body().lines()).contains(names(stack4000) + " 90");

        HttpResponse<String> html = http.get("/actuator/cpuprofiler/deep-4000?format=html");
        assertThat(html.statusCode()).isEqualTo(200);
        assertThat(flameLevels(html.body())).as("levels of the page's data: all, then 4000 frames").isEqualTo(4001);
    }

    @Test
    void aProfile8192FramesDeepComesBackWholeAndTheStatusShowsItWhole() {
        Http http = new Http(port);

        HttpResponse<String> json = http.get("/actuator/cpuprofiler/latest");
        assertThat(json.statusCode()).as(json.body()).isEqualTo(200);
        assertThat(leafPaths(json.body())).contains(names(stack8192), names(lookback8192));
        HttpResponse<String> html = http.get("/actuator/cpuprofiler/deep-8192?format=html");
        assertThat(html.statusCode()).isEqualTo(200);
        assertThat(flameLevels(html.body())).isEqualTo(8193);
        assertThat(http.get("/actuator/cpuprofiler/deep-8192?format=collapsed").body().lines())
                .contains(names(stack8192) + " 70", names(lookback8192) + " 30");

        // The status: the latest profile with its look-back part, folded below 0.5%, still 8192 frames deep.
        HttpResponse<String> status = http.get("/actuator/cpuprofiler");
        assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
        assertThat(status.body()).contains("\"id\":\"deep-8192\"");
        assertThat(leafPaths(status.body())).contains(names(stack8192), names(lookback8192));
    }

    private Profile profile(String id, StackTree tree, LookbackSnapshot lookback) {
        Instant start = Instant.parse("2026-11-23T10:00:10Z");
        return ProfileBuilder.profile(id, SessionTrigger.MANUAL, tree.snapshot())
                .engine(EngineChoice.ASYNC_PROFILER, "perf_events").between(start, start.plusSeconds(1))
                .lookback(lookback).build();
    }

    private static StackTree tree(List<Frame> deep, long weight, List<Frame> other, long otherWeight) {
        StackTree tree = new StackTree(8192, 200_000, false);
        tree.accept(deep, "worker", weight);
        tree.accept(other, "worker", otherWeight);
        return tree;
    }

    /** Thread.run, then frames app.{name}.Deep.f1 .. f(depth - 2), then app.{name}.Deep.leaf: depth frames. */
    private static List<Frame> stack(String name, int depth) {
        List<Frame> frames = new ArrayList<>();
        frames.add(Frame.java("java.lang.Thread.run"));
        while (frames.size() < depth - 1) {
            frames.add(Frame.java("app." + name + ".Deep.f" + frames.size()));
        }
        frames.add(Frame.java("app." + name + ".Deep.leaf"));
        return frames;
    }

    private static String names(List<Frame> stack) {
        return String.join(";", stack.stream().map(Frame::name).toList());
    }

    /** Every root-to-leaf path of every tree in the document (read token by token: it nests two levels a frame). */
    private static List<String> leafPaths(String json) {
        List<String> paths = new ArrayList<>();
        String[] frameAt = new String[20_000];
        int objects = 0;
        int root = -1;
        try (JsonParser parser = DEEP_JSON.createParser(json)) {
            for (JsonToken t; (t = parser.nextToken()) != null; ) {
                if (t == JsonToken.START_OBJECT) {
                    objects++;
                } else if (t == JsonToken.END_OBJECT) {
                    objects--;
                } else if (t == JsonToken.PROPERTY_NAME && parser.currentName().equals("frame")) {
                    String frame = parser.nextStringValue();
                    if (frame.equals("all")) {
                        root = objects;
                    }
                    frameAt[objects] = frame;
                    if (frame.endsWith(".Deep.leaf")) {
                        paths.add(String.join(";", Arrays.asList(frameAt).subList(root + 1, objects + 1)));
                    }
                }
            }
        }
        assertThat(objects).isZero();
        return paths;
    }

    private static int flameLevels(String html) {
        Matcher m = Pattern.compile("const levels = Array\\((\\d+)\\);").matcher(html);
        assertThat(m.find()).as("the flame graph's data").isTrue();
        return Integer.parseInt(m.group(1));
    }
}
