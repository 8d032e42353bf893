package dev.cpuprofiler.autoconfigure.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.core.io.Resource;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code profiler.cpu.jfr.include-system-info=true}, end to end in a context: the operator's opt-in puts the JVM's
 * system properties back into the JFR recording, and only there (served as {@code format=jfr}, pushed as {@code jfr},
 * written to the output directory as {@code .jfr}); every other format, the status and the output directory's other
 * files still hold none of them, and the environment is never recorded. The value searched for is this JVM's
 * {@code java.home}, a property JFR records at the recording's start. Without the opt-in, each engine's recording
 * holds no system information (profiler-core's {@code SystemInfoInRecordingsTest}), and real shops are searched for
 * their secrets in every format, page and push (realistic-app's {@code RealisticProfileTest}).
 */
class SystemInfoOptInTest {

    private static final Duration HANG = Duration.ofSeconds(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path out;

    private RecordingServer server;

    @BeforeEach
    void startServer() throws Exception {
        server = new RecordingServer();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void theOptInPutsTheSystemPropertiesIntoTheRecordingsAndNowhereElse() {
        String javaHome = System.getProperty("java.home");
        ExportFixtures.runner().withPropertyValues("profiler.cpu.engine=jfr-execution",
                "profiler.cpu.jfr.include-system-info=true", "profiler.cpu.output-directory=" + out,
                "profiler.cpu.export.pyroscope.url=" + server.url() + "/",
                "profiler.cpu.export.pyroscope.format=jfr").run(context -> {
                    CpuProfiler profiler = context.getBean(CpuProfiler.class);
                    CpuProfilerEndpoint endpoint = context.getBean(CpuProfilerEndpoint.class);
                    String id = profiler.startOnDemand(Duration.ofSeconds(1)).id();
                    await().atMost(HANG).until(() -> profiler.profile(id).isPresent());
                    await().atMost(HANG).until(() -> !server.requests().isEmpty());

                    Map<String, byte[]> served = new LinkedHashMap<>();
                    for (String format : List.of("json", "text", "collapsed", "html", "pprof", "jfr")) {
                        served.put("format=" + format, body(endpoint.profile(id, format, null, null, null, null)));
                    }
                    served.put("status", JSON.writeValueAsBytes(endpoint.status()));
                    served.put("status page", body(endpoint.statusOrPage("html", null)));
                    Map<String, byte[]> written = new LinkedHashMap<>();
                    try (Stream<Path> files = Files.list(out)) {
                        for (Path f : files.toList()) {
                            written.put(f.getFileName().toString(), Files.readAllBytes(f));
                        }
                    }
                    byte[] pushed = server.requests().get(0).body();

                    assertThat(properties(served.get("format=jfr"))).as("format=jfr").containsEntry("java.home",
                            javaHome);
                    assertThat(properties(pushed)).as("the jfr push").containsEntry("java.home", javaHome);
                    assertThat(written).as("the output directory's files").hasSize(3)
                            .allSatisfy((name, bytes) -> assertThat(contains(bytes, javaHome))
                                    .as("%s holds java.home", name).isEqualTo(name.endsWith(".jfr")));
                    served.forEach((what, bytes) -> assertThat(contains(bytes, javaHome))
                            .as("%s holds java.home", what).isEqualTo(what.equals("format=jfr")));
                    for (byte[] recording : List.of(served.get("format=jfr"), pushed)) {
                        assertThat(eventTypes(recording)).as("the environment is never recorded")
                                .contains("jdk.InitialSystemProperty").doesNotContain("jdk.InitialEnvironmentVariable");
                    }
                });
    }

    private static byte[] body(WebEndpointResponse<?> response) throws IOException {
        assertThat(response.getStatus()).isEqualTo(200);
        Object body = response.getBody();
        if (body instanceof Resource resource) {
            try (InputStream in = resource.getInputStream()) {
                return in.readAllBytes();
            }
        }
        return body instanceof byte[] bytes ? bytes : body instanceof String s ? s.getBytes(StandardCharsets.UTF_8)
                : JSON.writeValueAsBytes(body);
    }

    private static boolean contains(byte[] bytes, String text) {
        return new String(bytes, StandardCharsets.ISO_8859_1).contains(text);
    }

    private static Map<String, String> properties(byte[] recording) throws IOException {
        Map<String, String> properties = new LinkedHashMap<>();
        for (RecordedEvent e : events(recording)) {
            if (e.getEventType().getName().equals("jdk.InitialSystemProperty")) {
                properties.put(e.getString("key"), e.getString("value"));
            }
        }
        return properties;
    }

    private static List<String> eventTypes(byte[] recording) throws IOException {
        return events(recording).stream().map(e -> e.getEventType().getName()).distinct().toList();
    }

    private static List<RecordedEvent> events(byte[] recording) throws IOException {
        Path file = Files.createTempFile("opt-in", ".jfr");
        try {
            Files.write(file, recording);
            List<RecordedEvent> events = new ArrayList<>();
            try (RecordingFile in = new RecordingFile(file)) {
                while (in.hasMoreEvents()) {
                    events.add(in.readEvent());
                }
            }
            return events;
        } finally {
            Files.delete(file);
        }
    }
}
