package dev.cpuprofiler.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.autoconfigure.CpuProfilerAutoConfiguration;
import dev.cpuprofiler.autoconfigure.CpuProfilerEndpointAutoConfiguration;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import dev.cpuprofiler.autoconfigure.StoredProfiles;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The status's {@code reference}, as its JSON names it (ARCHITECTURE's "What changed"): {@code null} before the first
 * reference of normal, then its {@code id}, {@code recordedAt} and {@code samples}; a reference is never the
 * {@code latestProfile}.
 */
class ReferenceInTheStatusTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(CpuProfilerAutoConfiguration.class,
                    CpuProfilerEndpointAutoConfiguration.class, EndpointAutoConfiguration.class,
                    WebEndpointAutoConfiguration.class))
            .withPropertyValues("profiler.cpu.enabled=false", "management.endpoints.web.exposure.include=cpuprofiler");

    private static JsonNode statusJson(CpuProfilerEndpoint endpoint) {
        return JsonMapper.builder().build().valueToTree(endpoint.status());
    }

    private static Profile reference() {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(List.of(Frame.java("app.Main.loop"), Frame.java("app.Calm.wait")), "worker", 42);
        Instant started = Instant.parse("2026-11-28T09:00:00Z");
        return ProfileBuilder.profile("20261128T090000Z-reference-1-test", SessionTrigger.REFERENCE, tree.snapshot())
                .engine(EngineChoice.JFR_EXECUTION, "jfr").between(started, started.plusSeconds(10)).cpuPercent(3.0)
                .build();
    }

    @Test
    void theStatusNamesTheReferenceInForceOrNull() {
        runner.run(context -> {
            CpuProfilerEndpoint endpoint = context.getBean(CpuProfilerEndpoint.class);
            JsonNode before = statusJson(endpoint);
            assertThat(before.has("reference")).isTrue();
            assertThat(before.get("reference").isNull()).isTrue();

            Profile reference = StoredProfiles.add(context.getBean(CpuProfiler.class), reference());
            JsonNode status = statusJson(endpoint);

            JsonNode shown = status.get("reference");
            assertThat(shown.get("id").asString()).isEqualTo(reference.id());
            assertThat(shown.get("recordedAt").asString()).isEqualTo("2026-11-28T09:00:10Z");
            assertThat(shown.get("samples").asLong()).isEqualTo(42);
            assertThat(status.get("latestProfile").isNull()).as("a reference is no latest profile").isTrue();
            assertThat(status.get("profiles").get(0).get("trigger").asString()).isEqualTo("REFERENCE");
        });
    }
}
