package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.autoconfigure.StoredProfiles;

import static dev.cpuprofiler.autoconfigure.export.ExportFixtures.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.autoconfigure.OwnThreadGroup;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpoint;
import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.InvalidOptionException;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Pushing to Pyroscope over real HTTP, against a local server that records what arrives. */
class PyroscopeExportTest {

    private static final Duration HANG = Duration.ofSeconds(30);

    private RecordingServer server;
    private ApplicationContextRunner runner;

    @BeforeEach
    void startServer() throws Exception {
        server = new RecordingServer();
        runner = ExportFixtures.runner()
                .withBean(ProfileBody.class, ExportFixtures.CollapsedBody::new)
                .withPropertyValues("profiler.cpu.export.pyroscope.url=" + server.url() + "/");
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void eachStoredProfileIsPostedToIngestWithItsNameLabelsTimeRangeAndBody() {
        runner.withPropertyValues("spring.application.name=shop", "profiler.cpu.export.pyroscope.labels.env=prod",
                "profiler.cpu.export.pyroscope.labels.region=eu_west", "profiler.cpu.export.pyroscope.bearer-token=t0k",
                "profiler.cpu.export.pyroscope.tenant-id=team-a").run(context -> {
                    SimpleMeterRegistry registry = meters(context.getBean(ExportMeterBinder.class));
                    Profile profile = ExportFixtures.profile();
                    StoredProfiles.add(context.getBean(CpuProfiler.class), profile);

                    await().atMost(HANG).until(() -> count(registry, "pyroscope", "success") == 1);
                    assertThat(server.requests()).hasSize(1);
                    RecordingServer.Request request = server.requests().get(0);
                    assertThat(request.method()).isEqualTo("POST");
                    assertThat(request.path()).isEqualTo("/ingest");
                    // Braces, equals signs and commas of the name travel URL-encoded.
                    assertThat(request.rawQuery()).startsWith("name=shop%7Bengine%3Dasync-profiler%2Cenv%3Dprod%2C"
                            + "region%3Deu_west%2Ctrigger%3Dmanual%7D&");
                    assertThat(request.query()).containsExactly(
                            Map.entry("name", "shop{engine=async-profiler,env=prod,region=eu_west,trigger=manual}"),
                            Map.entry("from", String.valueOf(ExportFixtures.STARTED.getEpochSecond())),
                            Map.entry("until", String.valueOf(ExportFixtures.ENDED.getEpochSecond() + 1)),
                            Map.entry("format", "pprof"), Map.entry("spyName", "javaspy"),
                            Map.entry("sampleRate", "100"));
                    assertThat(request.headers().getFirst("Authorization")).isEqualTo("Bearer t0k");
                    assertThat(request.headers().getFirst("X-Scope-OrgID")).isEqualTo("team-a");
                    assertThat(request.headers().getFirst("Content-Type")).isEqualTo("application/octet-stream");
                    assertThat(request.body()).isEqualTo(ExportFixtures.collapsed(profile));
                    assertThat(new String(request.body(), StandardCharsets.UTF_8))
                            .contains("java.lang.Thread.run;app.Main.loop;app.Kernel.spin 70");

                    ExportDescriptor export = context.getBean(CpuProfilerEndpoint.class).status().export();
                    assertThat(export.targets()).containsExactly("pyroscope");
                    assertThat(export.result()).isEqualTo("success");
                    assertThat(export.httpStatus()).isEqualTo(200);
                    assertThat(export.profileId()).isEqualTo(profile.id());
                    assertThat(export.at()).isNotNull();
                });
    }

    @Test
    void basicAuthenticationSendsABasicHeaderAndTheNamedApplication() {
        runner.withPropertyValues("spring.application.name=ignored",
                "profiler.cpu.export.pyroscope.application-name=billing",
                "profiler.cpu.export.pyroscope.basic-auth-user=123456",
                "profiler.cpu.export.pyroscope.basic-auth-password=s3cret:x").run(context -> {
                    StoredProfiles.add(context.getBean(CpuProfiler.class), ExportFixtures.profile());
                    await().atMost(HANG).until(() -> server.requests().size() == 1);
                    RecordingServer.Request request = server.requests().get(0);
                    assertThat(request.headers().getFirst("Authorization")).isEqualTo("Basic "
                            + Base64.getEncoder().encodeToString("123456:s3cret:x".getBytes(StandardCharsets.UTF_8)));
                    assertThat(request.headers().containsKey("X-Scope-OrgID")).isFalse();
                    assertThat(request.query().get("name")).startsWith("billing{");
                });
    }

    @Test
    void withoutANameTheApplicationIsCalledApplication() {
        runner.run(context -> {
            StoredProfiles.add(context.getBean(CpuProfiler.class), ExportFixtures.profile());
            await().atMost(HANG).until(() -> server.requests().size() == 1);
            assertThat(server.requests().get(0).query().get("name"))
                    .isEqualTo("application{engine=async-profiler,trigger=manual}");
            assertThat(server.requests().get(0).headers().containsKey("Authorization")).isFalse();
        });
    }

    /** Grafana's diff view picks the reference of normal by its label. */
    @Test
    void aReferenceOfNormalIsPushedLabelledTriggerReference() {
        runner.run(context -> {
            StoredProfiles.add(context.getBean(CpuProfiler.class), ExportFixtures.profile(SessionTrigger.REFERENCE));
            await().atMost(HANG).until(() -> server.requests().size() == 1);
            assertThat(server.requests().get(0).query().get("name"))
                    .isEqualTo("application{engine=async-profiler,trigger=reference}");
        });
    }

    @Test
    void a503IsRetriedAndThenSucceeds() {
        server.answer(503, "ingester restarting", Map.of("Retry-After", "1"));
        runner.run(context -> {
            SimpleMeterRegistry registry = meters(context.getBean(ExportMeterBinder.class));
            Profile profile = ExportFixtures.profile();
            StoredProfiles.add(context.getBean(CpuProfiler.class), profile);
            await().atMost(HANG).until(() -> count(registry, "pyroscope", "success") == 1);
            assertThat(count(registry, "pyroscope", "retry")).isEqualTo(1);
            assertThat(count(registry, "pyroscope", "failure")).isZero();
            assertThat(server.requests()).hasSize(2).allSatisfy(r -> assertThat(r.body())
                    .isEqualTo(ExportFixtures.collapsed(profile)));
        });
    }

    @Test
    void a400IsNotRetried() {
        server.answer(400, "invalid labels", Map.of());
        runner.run(context -> {
            SimpleMeterRegistry registry = meters(context.getBean(ExportMeterBinder.class));
            CpuProfiler profiler = context.getBean(CpuProfiler.class);
            Profile refused = ExportFixtures.profile();
            StoredProfiles.add(profiler, refused);
            await().atMost(HANG).until(() -> count(registry, "pyroscope", "failure") == 1);
            ExportDescriptor export = context.getBean(CpuProfilerEndpoint.class).status().export();
            assertThat(export.result()).isEqualTo("failure");
            assertThat(export.httpStatus()).isEqualTo(400);
            assertThat(export.message()).contains("HTTP 400").contains("invalid labels");

            // One thread sends in order, retries included: the next profile's request comes right after the refused
            // one, so no retry of it was made in between.
            Profile next = ExportFixtures.profile();
            StoredProfiles.add(profiler, next);
            await().atMost(HANG).until(() -> count(registry, "pyroscope", "success") == 1);
            assertThat(server.requests()).extracting(r -> new String(r.body(), StandardCharsets.UTF_8))
                    .containsExactly(new String(ExportFixtures.collapsed(refused), StandardCharsets.UTF_8),
                            new String(ExportFixtures.collapsed(next), StandardCharsets.UTF_8));
            assertThat(count(registry, "pyroscope", "retry")).isZero();
        });
    }

    @Test
    void aRedirectIsAFailureAndNothingReachesTheHostItPointsTo() throws Exception {
        try (RecordingServer elsewhere = new RecordingServer()) {
            server.answer(302, "", Map.of("Location", elsewhere.url() + "/elsewhere/ingest?token=s3cret"));
            server.answer(307, "", Map.of("Location", elsewhere.url() + "/ingest"));
            runner.withPropertyValues("profiler.cpu.export.pyroscope.bearer-token=t0k",
                    "profiler.cpu.export.pyroscope.tenant-id=team-a").run(context -> {
                        SimpleMeterRegistry registry = meters(context.getBean(ExportMeterBinder.class));
                        CpuProfiler profiler = context.getBean(CpuProfiler.class);
                        CpuProfilerEndpoint endpoint = context.getBean(CpuProfilerEndpoint.class);

                        StoredProfiles.add(profiler, ExportFixtures.profile());
                        await().atMost(HANG).until(() -> outcomes(registry) == 1);
                        ExportDescriptor export = endpoint.status().export();
                        assertThat(export.result()).isEqualTo("failure");
                        assertThat(export.httpStatus()).isEqualTo(302);
                        // Where it points, without the query (which may carry a secret of the other host's).
                        assertThat(export.message()).contains("HTTP 302")
                                .contains(elsewhere.url() + "/elsewhere/ingest").doesNotContain("s3cret");

                        // 307 would re-send the body too: neither is followed.
                        StoredProfiles.add(profiler, ExportFixtures.profile());
                        await().atMost(HANG).until(() -> outcomes(registry) == 2);
                        export = endpoint.status().export();
                        assertThat(export.httpStatus()).isEqualTo(307);
                        assertThat(export.message()).contains("HTTP 307").contains(elsewhere.url() + "/ingest");

                        assertThat(count(registry, "pyroscope", "retry")).as("a redirect is not retried").isZero();
                        assertThat(server.requests()).hasSize(2);
                        assertThat(elsewhere.requests()).as("no header, credential or body goes to the other host")
                                .isEmpty();
                    });
        }
    }

    @Test
    void aHugeAnswerIsNotReadWhole() {
        long huge = 64L << 20;
        server.answerStreaming(400, huge);
        runner.run(context -> {
            SimpleMeterRegistry registry = meters(context.getBean(ExportMeterBinder.class));
            StoredProfiles.add(context.getBean(CpuProfiler.class), ExportFixtures.profile());
            await().atMost(HANG).until(() -> outcomes(registry) == 1);
            ExportDescriptor export = context.getBean(CpuProfilerEndpoint.class).status().export();
            assertThat(export.httpStatus()).isEqualTo(400);
            assertThat(export.message()).startsWith("HTTP 400: xxx").hasSizeLessThan(400);
            // The exporter read the first bytes and hung up: the server wrote what the sockets' buffers took, and
            // then failed, long before the end of the answer.
            await().atMost(HANG).until(() -> server.answered() == 1);
            assertThat(server.written()).as("bytes the server got to write of %s", huge).isLessThan(huge / 4);
        });
    }

    @Test
    void anAnswerThatNeverEndsTimesOut() {
        server.answerStalling(200);
        runner.withPropertyValues("profiler.cpu.export.timeout=1s").run(context -> {
            SimpleMeterRegistry registry = meters(context.getBean(ExportMeterBinder.class));
            StoredProfiles.add(context.getBean(CpuProfiler.class), ExportFixtures.profile());
            // The status and the first bytes came at once; the time-out bounds the rest of the answer too.
            await().atMost(HANG).until(() -> count(registry, "pyroscope", "retry") >= 1);
            assertThat(count(registry, "pyroscope", "success")).isZero();
            assertThat(context.getBean(ProfileExporter.class).last().orElseThrow().message())
                    .containsIgnoringCase("timed out");
        });
    }

    @Test
    void aFullQueueDropsProfilesWithoutBlockingAndCountsThem() {
        server.holdRequests();
        runner.withPropertyValues("profiler.cpu.export.queue-capacity=2").run(context -> {
            SimpleMeterRegistry registry = meters(context.getBean(ExportMeterBinder.class));
            CpuProfiler profiler = context.getBean(CpuProfiler.class);
            StoredProfiles.add(profiler, ExportFixtures.profile());
            // The exporter's thread is now stuck in the first push; two profiles fit the queue, two do not.
            await().atMost(HANG).until(() -> server.requests().size() == 1);
            long before = System.nanoTime();
            for (int i = 0; i < 4; i++) {
                StoredProfiles.add(profiler, ExportFixtures.profile());
            }
            assertThat(Duration.ofNanos(System.nanoTime() - before)).as("storing never waits for the target")
                    .isLessThan(Duration.ofSeconds(2));
            assertThat(count(registry, "pyroscope", "dropped")).isEqualTo(2);
            assertThat(profiler.profiles().size()).isEqualTo(5);
            assertThat(context.getBean(CpuProfilerEndpoint.class).status().export().result()).isEqualTo("dropped");

            server.release();
            await().atMost(HANG).until(() -> count(registry, "pyroscope", "success") == 3);
            assertThat(server.requests()).hasSize(3);
        });
    }

    @Test
    void anUnreachableTargetLeavesTheApplicationUnharmed() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        ExportFixtures.runner().withPropertyValues(
                "profiler.cpu.export.pyroscope.url=http://127.0.0.1:" + closedPort,
                "profiler.cpu.engine=jfr-execution", "profiler.cpu.stack-sampling-period=10ms")
                .withBean(ProfileBody.class, ExportFixtures.CollapsedBody::new).run(context -> {
                    SimpleMeterRegistry registry = meters(context.getBean(ExportMeterBinder.class));
                    CpuProfiler profiler = context.getBean(CpuProfiler.class);
                    // A real session: its thread stores the profile, and the push must not hold it.
                    String id = profiler.startOnDemand(Duration.ofSeconds(1)).id();
                    await().atMost(HANG).until(() -> profiler.profile(id).isPresent());
                    await().atMost(HANG).until(() -> count(registry, "pyroscope", "failure") == 1);
                    assertThat(count(registry, "pyroscope", "retry")).isEqualTo(3);
                    assertThat(count(registry, "pyroscope", "success")).isZero();

                    CpuProfilerEndpoint endpoint = context.getBean(CpuProfilerEndpoint.class);
                    assertThat(endpoint.status().latestProfile()).startsWith("{\"id\":\"" + id + "\",");
                    assertThat(endpoint.profile(id, "collapsed", null, null, null, null).getStatus()).isEqualTo(200);
                    ExportDescriptor export = endpoint.status().export();
                    assertThat(export.result()).isEqualTo("failure");
                    assertThat(export.httpStatus()).isNull();
                    assertThat(export.message()).contains("ConnectException").contains("gave up after 4 attempts");
                    assertThat(profiler.status().session()).isNull();
                });
    }

    @Test
    void closingTheContextStopsTheExportThread() throws Exception {
        OwnThreadGroup own = new OwnThreadGroup();
        own.run(() -> runner.run(context -> {
            assertThat(own.alive(ProfileExporter.THREAD_NAME)).hasSize(1).allSatisfy(t -> assertThat(t.isDaemon())
                    .isTrue());
            StoredProfiles.add(context.getBean(CpuProfiler.class), ExportFixtures.profile());
            await().atMost(HANG).until(() -> server.requests().size() == 1);
            context.close();
            await().atMost(Duration.ofSeconds(10)).until(() -> own.alive(ProfileExporter.THREAD_NAME).isEmpty());
        }));
    }

    @Test
    void withoutAUrlNothingIsExported() {
        ExportFixtures.runner().run(context -> {
            assertThat(context).doesNotHaveBean(ProfileExporter.class).doesNotHaveBean(ExportTarget.class);
            assertThat(context.getBean(CpuProfilerEndpoint.class).status().export()).isNull();
        });
    }

    @Test
    void badValuesFailStartUpNamingTheProperty() {
        for (List<String> bad : List.of(List.of("profiler.cpu.export.pyroscope.url=pyroscope:4040",
                "profiler.cpu.export.pyroscope.url"),
                List.of("profiler.cpu.export.pyroscope.format=xml", "profiler.cpu.export.pyroscope.format"),
                List.of("profiler.cpu.export.pyroscope.labels.trigger=x", "profiler.cpu.export.pyroscope.labels.trigger"),
                List.of("profiler.cpu.export.pyroscope.basic-auth-user=u", "profiler.cpu.export.pyroscope.basic-auth-password"),
                List.of("profiler.cpu.export.timeout=0s", "profiler.cpu.export.timeout"),
                List.of("profiler.cpu.export.queue-capacity=0", "profiler.cpu.export.queue-capacity"))) {
            runner.withPropertyValues(bad.get(0)).run(context -> {
                assertThat(context).hasFailed();
                Throwable cause = context.getStartupFailure();
                while (cause.getCause() != null && !(cause instanceof InvalidOptionException)) {
                    cause = cause.getCause();
                }
                assertThat(cause).as(bad.get(0)).isInstanceOf(InvalidOptionException.class);
                assertThat(((InvalidOptionException) cause).property()).isEqualTo(bad.get(1));
            });
        }
    }

    /** Profiles that reached their end at the target: delivered or failed. */
    private static double outcomes(SimpleMeterRegistry registry) {
        return count(registry, "pyroscope", "success") + count(registry, "pyroscope", "failure");
    }

    private static SimpleMeterRegistry meters(ExportMeterBinder binder) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        binder.bindTo(registry);
        return registry;
    }
}
