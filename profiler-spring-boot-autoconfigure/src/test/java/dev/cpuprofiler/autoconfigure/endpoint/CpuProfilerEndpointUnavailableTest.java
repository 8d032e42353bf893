package dev.cpuprofiler.autoconfigure.endpoint;

import static dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpointStatusTest.PATH;
import static dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpointStatusTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpointStatusTest.Client;
import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.internal.core.DefaultCpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.EngineUnavailableException;
import dev.cpuprofiler.internal.engine.ProfilingEngine;
import dev.cpuprofiler.internal.stack.StackSink;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * When no engine can record, a POST answers 503 with the reason, whatever the client accepts: the profiler's own
 * {@link CpuProfiler} bean is replaced by one whose only engine always refuses, as a user may replace it.
 */
@SpringBootTest(classes = {EndpointTestApplication.class, CpuProfilerEndpointUnavailableTest.NoEngineCanRecord.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=cpuprofiler",
            "management.endpoint.cpuprofiler.access=unrestricted",
            "profiler.cpu.enabled=false"
        })
// Closed afterwards: a cached context would keep its profiler's threads running through every later test.
@DirtiesContext
class CpuProfilerEndpointUnavailableTest {

    static final String WHY = "this test's engine never records";

    @LocalServerPort
    int port;

    @Autowired
    CpuProfiler profiler;

    @ParameterizedTest
    @EnumSource(Client.class)
    void postIs503WithTheReasonWhenNoEngineCanRecord(Client client) {
        Http http = new Http(port);
        List<HttpResponse<String>> answers = List.of(http.send("POST", PATH, client.accept, null, null),
                http.send("POST", PATH, client.accept, "application/json", "{\"duration\": \"5s\"}"),
                http.send("POST", PATH + "?duration=5s", client.accept, null, null));
        for (HttpResponse<String> r : answers) {
            assertRefused(r, 503, "The profile could not start: ");
            assertRefused(r, 503, "never-records: " + WHY);
        }
        assertThat(profiler.activeSession()).isEmpty();
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class NoEngineCanRecord {

        @Bean(destroyMethod = "close")
        CpuProfiler cpuProfiler(CpuProfilerOptions options) {
            return DefaultCpuProfiler.builder(options).engines(List.of(new NeverRecords())).build();
        }
    }

    static final class NeverRecords implements ProfilingEngine {

        @Override
        public String id() {
            return "never-records";
        }

        @Override
        public EngineRecording start(EngineSettings settings, StackSink sink) throws EngineUnavailableException {
            throw new EngineUnavailableException(id(), WHY);
        }
    }
}
