package dev.cpuprofiler.autoconfigure.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Credentials configured for a target that would travel unencrypted (plain http to a host other than this machine)
 * are warned about once, when the exporter starts, without their values. Nothing is pushed: no network is needed.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnencryptedCredentialsTest {

    private static final String WARNING = "unencrypted";
    private static final String TOKEN = "t0k3n-that-must-not-be-logged";

    private final ApplicationContextRunner runner = ExportFixtures.runner();

    @Test
    void aBearerTokenOverHttpToAnotherHostIsWarnedOnceWithoutItsValue(CapturedOutput output) {
        runner.withPropertyValues("profiler.cpu.export.pyroscope.url=http://example.invalid:4040",
                "profiler.cpu.export.pyroscope.bearer-token=" + TOKEN).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(ProfileExporter.class).isRunning()).isTrue();
                });
        assertThat(output.getOut().lines().filter(l -> l.contains(WARNING))).singleElement().asString()
                .contains("WARN", "pyroscope", "Authorization", "example.invalid", "https");
        assertThat(output.getAll()).doesNotContain(TOKEN);
    }

    @Test
    void basicAuthenticationAndOtlpCredentialHeadersAreWarnedAboutToo(CapturedOutput output) {
        runner.withPropertyValues("profiler.cpu.export.pyroscope.url=http://10.1.2.3:4040",
                "profiler.cpu.export.pyroscope.basic-auth-user=123456",
                "profiler.cpu.export.pyroscope.basic-auth-password=" + TOKEN,
                "profiler.cpu.export.otlp.endpoint=http://collector.example.invalid:4318",
                "profiler.cpu.export.otlp.headers.X-API-Key=" + TOKEN,
                "profiler.cpu.export.otlp.headers.X-Scope-OrgID=team-a").run(context -> assertThat(context)
                        .hasNotFailed());
        List<String> warnings = output.getOut().lines().filter(l -> l.contains(WARNING)).toList();
        assertThat(warnings).hasSize(2);
        assertThat(warnings).filteredOn(l -> l.contains("pyroscope")).singleElement().asString()
                .contains("Authorization", "10.1.2.3");
        assertThat(warnings).filteredOn(l -> l.contains("otlp")).singleElement().asString()
                .contains("X-API-Key", "collector.example.invalid").doesNotContain("X-Scope-OrgID");
        assertThat(output.getAll()).doesNotContain(TOKEN);
    }

    @Test
    void noWarningForLoopbackHttpsOrNoCredentials(CapturedOutput output) {
        for (String url : List.of("http://localhost:4040", "http://LOCALHOST:4040", "http://127.0.0.1:4040",
                "http://127.8.9.10:4040", "http://[::1]:4040", "https://example.invalid")) {
            runner.withPropertyValues("profiler.cpu.export.pyroscope.url=" + url,
                    "profiler.cpu.export.pyroscope.bearer-token=" + TOKEN).run(context -> assertThat(context)
                            .hasNotFailed());
        }
        // A tenant id names a tenant, it proves nothing: anyone reaching the server can send any.
        runner.withPropertyValues("profiler.cpu.export.pyroscope.url=http://example.invalid:4040",
                "profiler.cpu.export.pyroscope.tenant-id=team-a",
                "profiler.cpu.export.otlp.endpoint=http://collector.example.invalid:4318",
                "profiler.cpu.export.otlp.headers.X-Scope-OrgID=team-a").run(context -> assertThat(context)
                        .hasNotFailed());
        assertThat(output.getOut()).contains("Exporting CPU profiles to").doesNotContain(WARNING);
    }

    @Test
    void onlyLocalhostAndLoopbackAddressLiteralsAreThisMachine() {
        assertThat(List.of("localhost", "127.0.0.1", "127.255.0.9", "[::1]", "::1", "[0:0:0:0:0:0:0:1]",
                "::ffff:127.0.0.1")).allMatch(UnencryptedCredentials::loopback);
        // Names are judged as written, never looked up.
        assertThat(List.of("localhost.example.invalid", "127.0.0.1.example.invalid", "128.0.0.1", "10.0.0.1",
                "[::2]", "example.invalid", "")).noneMatch(UnencryptedCredentials::loopback);
    }
}
