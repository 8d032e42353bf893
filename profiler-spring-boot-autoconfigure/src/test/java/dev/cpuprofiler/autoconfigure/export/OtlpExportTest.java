package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.autoconfigure.StoredProfiles;

import static dev.cpuprofiler.autoconfigure.export.ExportFixtures.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import dev.cpuprofiler.internal.stack.StackTree;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.ResourceProfiles;
import io.opentelemetry.proto.profiles.v1development.Sample;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;

/** OTLP/HTTP profiles (experimental), decoded with the official generated classes. */
class OtlpExportTest {

    @Test
    void eachStoredProfileIsPostedAsAnExportProfilesServiceRequest() throws Exception {
        try (RecordingServer server = new RecordingServer()) {
            ExportFixtures.runner().withPropertyValues("spring.application.name=shop",
                    "profiler.cpu.export.otlp.endpoint=" + server.url(),
                    "profiler.cpu.export.otlp.resource-attributes[deployment.environment.name]=prod",
                    "profiler.cpu.export.otlp.headers.Authorization=Bearer abc").run(context -> {
                        assertThat(context).doesNotHaveBean(PyroscopeTarget.class);
                        SimpleMeterRegistry registry = new SimpleMeterRegistry();
                        context.getBean(ExportMeterBinder.class).bindTo(registry);
                        Profile profile = ExportFixtures.profile();
                        StoredProfiles.add(context.getBean(CpuProfiler.class), profile);
                        await().atMost(Duration.ofSeconds(30)).until(() -> count(registry, "otlp", "success") == 1);

                        RecordingServer.Request request = server.requests().get(0);
                        assertThat(request.path()).isEqualTo("/v1development/profiles");
                        assertThat(request.headers().getFirst("Content-Type")).isEqualTo("application/x-protobuf");
                        assertThat(request.headers().getFirst("Authorization")).isEqualTo("Bearer abc");
                        ExportProfilesServiceRequest export = ExportProfilesServiceRequest.parseFrom(request.body());

                        ResourceProfiles resource = export.getResourceProfiles(0);
                        assertThat(resource.getResource().getAttributesList().stream().collect(Collectors.toMap(
                                KeyValue::getKey, kv -> kv.getValue().getStringValue()))).containsExactlyInAnyOrderEntriesOf(
                                        Map.of("service.name", "shop", "deployment.environment.name", "prod"));
                        io.opentelemetry.proto.profiles.v1development.Profile otlp = resource.getScopeProfiles(0)
                                .getProfiles(0);
                        ProfilesDictionary d = export.getDictionary();
                        assertThat(d.getStringTable(0)).isEmpty();
                        assertThat(d.getStringTable(otlp.getSampleType().getTypeStrindex())).isEqualTo("samples");
                        assertThat(otlp.getPeriod()).isEqualTo(10_000_000L);
                        assertThat(otlp.getTimeUnixNano()).isEqualTo(ExportFixtures.STARTED.toEpochMilli()
                                * 1_000_000L);
                        assertThat(otlp.getDurationNano()).isEqualTo(Duration.between(ExportFixtures.STARTED,
                                ExportFixtures.ENDED).toNanos());

                        // Each sample's stack, leaf first, read back through the dictionary.
                        Map<List<String>, Long> stacks = new HashMap<>();
                        for (Sample sample : otlp.getSamplesList()) {
                            List<String> frames = new ArrayList<>();
                            for (int location : d.getStackTable(sample.getStackIndex()).getLocationIndicesList()) {
                                int function = d.getLocationTable(location).getLines(0).getFunctionIndex();
                                frames.add(d.getStringTable(d.getFunctionTable(function).getNameStrindex()));
                            }
                            stacks.merge(frames, sample.getValues(0), Long::sum);
                        }
                        assertThat(stacks).containsExactlyInAnyOrderEntriesOf(Map.of(
                                List.of(ExportFixtures.HOT, "app.Main.loop", "java.lang.Thread.run"), 70L,
                                List.of("app.Io.read", "java.lang.Thread.run"), 30L));
                        List<String> attributes = otlp.getAttributeIndicesList().stream()
                                .map(i -> d.getStringTable(d.getAttributeTable(i).getKeyStrindex()) + "="
                                        + d.getAttributeTable(i).getValue().getStringValue())
                                .toList();
                        assertThat(attributes).contains("profile.trigger=manual", "profile.engine=async-profiler");
                    });
        }
    }

    @Test
    void aReferenceOfNormalIsPushedWithItsTrigger() throws Exception {
        try (RecordingServer server = new RecordingServer()) {
            ExportFixtures.runner().withPropertyValues("profiler.cpu.export.otlp.endpoint=" + server.url())
                    .run(context -> {
                        StoredProfiles.add(context.getBean(CpuProfiler.class),
                                ExportFixtures.profile(SessionTrigger.REFERENCE));
                        await().atMost(Duration.ofSeconds(30)).until(() -> server.requests().size() == 1);
                        ExportProfilesServiceRequest export = ExportProfilesServiceRequest.parseFrom(
                                server.requests().get(0).body());
                        ProfilesDictionary d = export.getDictionary();
                        io.opentelemetry.proto.profiles.v1development.Profile otlp = export.getResourceProfiles(0)
                                .getScopeProfiles(0).getProfiles(0);
                        assertThat(otlp.getAttributeIndicesList().stream()
                                .map(i -> d.getStringTable(d.getAttributeTable(i).getKeyStrindex()) + "="
                                        + d.getAttributeTable(i).getValue().getStringValue()))
                                .contains("profile.trigger=reference");
                    });
        }
    }

    /** A profile with endpoints: each OTLP sample carries its endpoint as an attribute, not as a frame. */
    @Test
    void eachSampleCarriesItsEndpointAndATracedRequestsSpan() throws Exception {
        Profile plain = ExportFixtures.profile();
        StackTree byEndpoint = new StackTree(65, 10_000, false);
        StackTree bySpan = new StackTree(66, 10_000, false);
        Frame orbit = new Frame("GET /orbit", FrameKind.ENDPOINT);
        List<Frame> span = List.of(new Frame("4bf92f3577b34da6a3ce929d0e0e4736", FrameKind.TRACE),
                new Frame("00f067aa0ba902b7", FrameKind.SPAN));
        Frame noRequest = new Frame("[no request]", FrameKind.ENDPOINT);
        List<Frame> hot = List.of(Frame.java("java.lang.Thread.run"), Frame.java("app.Main.loop"),
                Frame.java(ExportFixtures.HOT));
        List<Frame> io = List.of(Frame.java("java.lang.Thread.run"), Frame.java("app.Io.read"));
        byEndpoint.accept(concat(List.of(orbit), hot), "worker", 70);
        byEndpoint.accept(concat(List.of(noRequest), io), "worker", 30);
        bySpan.accept(concat(concat(List.of(orbit), span), hot), "worker", 70);
        bySpan.accept(concat(List.of(noRequest), io), "worker", 30);
        Profile p = ProfileBuilder.copy(plain).requests(new Profile.Requests(
                List.of(new Profile.EndpointShare("GET /orbit", 70, 70, 7L, 100.0)), byEndpoint.snapshot(), List.of(),
                bySpan.snapshot())).build();

        ExportProfilesServiceRequest export = ExportProfilesServiceRequest.parseFrom(
                ProfileFormat.otlp("shop", Map.of()).bytes(p, ProfileView.FULL));
        ProfilesDictionary d = export.getDictionary();
        Map<String, Map<String, String>> leafToAttributes = new HashMap<>();
        Map<String, Integer> leafToLink = new HashMap<>();
        for (Sample sample : export.getResourceProfiles(0).getScopeProfiles(0).getProfiles(0).getSamplesList()) {
            List<String> frames = new ArrayList<>();
            for (int location : d.getStackTable(sample.getStackIndex()).getLocationIndicesList()) {
                int function = d.getLocationTable(location).getLines(0).getFunctionIndex();
                frames.add(d.getStringTable(d.getFunctionTable(function).getNameStrindex()));
            }
            assertThat(frames).noneMatch(f -> f.startsWith("["));
            Map<String, String> attributes = new HashMap<>();
            for (int index : sample.getAttributeIndicesList()) {
                var attribute = d.getAttributeTable(index);
                attributes.put(d.getStringTable(attribute.getKeyStrindex()), attribute.getValue().getStringValue());
            }
            leafToAttributes.put(frames.get(0), attributes);
            leafToLink.put(frames.get(0), sample.getLinkIndex());
        }
        assertThat(leafToAttributes).containsExactlyInAnyOrderEntriesOf(Map.of(
                ExportFixtures.HOT, Map.of("endpoint", "GET /orbit", "span_id", "00f067aa0ba902b7",
                        "span_name", "GET /orbit"),
                "app.Io.read", Map.of("endpoint", "[no request]")));
        assertThat(leafToLink.get("app.Io.read")).isZero();
        var link = d.getLinkTable(leafToLink.get(ExportFixtures.HOT));
        assertThat(HexFormat.of().formatHex(link.getTraceId().toByteArray()))
                .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(HexFormat.of().formatHex(link.getSpanId().toByteArray())).isEqualTo("00f067aa0ba902b7");
    }

    private static List<Frame> concat(List<Frame> a, List<Frame> b) {
        List<Frame> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    @Test
    void otlpNeedsNoJarOfItsOwn() {
        // The request is written by the profiler's own encoder: without opentelemetry-proto the target still works.
        ExportFixtures.runner().withClassLoader(new FilteredClassLoader("io.opentelemetry.proto"))
                .withPropertyValues("profiler.cpu.export.otlp.endpoint=http://127.0.0.1:4318").run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(OtlpTarget.class);
                    assertThat(context.getBean(ProfileExporter.class).targets()).containsExactly("otlp");
                    HttpRequest request = context.getBean(OtlpTarget.class).request(ExportFixtures.profile());
                    assertThat(request.bodyPublisher().orElseThrow().contentLength()).isGreaterThan(100);
                });
    }
}
