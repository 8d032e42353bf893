package dev.cpuprofiler.autoconfigure.requests;

import static dev.cpuprofiler.autoconfigure.requests.CpuByEndpointTest.assertKernelsUnderTheirEndpoints;
import static dev.cpuprofiler.autoconfigure.requests.CpuByEndpointTest.share;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link CpuByEndpointTest}'s application on virtual threads, in a JDK 25 child, with each engine; its bounds. */
class CpuByEndpointOnVirtualThreadsTest {

    /**
     * With {@code spring.threads.virtual.enabled=true}: both JFR engines name the virtual thread a sample ran on;
     * async-profiler names its carrier, so its profile has no endpoints and says why.
     */
    @Test
    void onVirtualThreadsJfrEnginesAttributeAndAsyncProfilerSaysItCannot() throws Exception {
        Path jdk25 = ChildJvm.jdk25OrSkip("[CpuByEndpoint]", "virtual threads and jfr-cpu-time need it");
        // Compiled by C1, as this module's test JVMs are, where the platform-thread runs above record.
        ChildJvm.Finished child = ChildJvm.of(TwoKernelsChild.class, "jfr-cpu-time:true", "jfr-execution:true",
                "async-profiler:true").on(jdk25).lean().run(Duration.ofSeconds(150));
        String text = child.output();
        assertThat(child.exited()).as("the child ended: %s", text).isTrue();
        List<String> results = child.lines("RESULT ");
        results.forEach(l -> System.out.println("[CpuByEndpoint] virtual threads, JDK 25: " + l));
        assertThat(results).as(text).hasSize(3);
        for (String jfr : results.subList(0, 2)) {
            assertThat(jfr).contains("endpoint=GET /alpha/{n}", "endpoint=GET /beta");
            assertKernelsUnderTheirEndpoints(share(jfr, "alpha"), share(jfr, "alphaUnderBeta"),
                    (long) share(jfr, "alphaSamples"), share(jfr, "beta"), share(jfr, "betaUnderAlpha"),
                    (long) share(jfr, "betaSamples"), jfr);
        }
        String async = results.get(2);
        assertThat(async).contains("engine=async-profiler", "endpoints=0 ", "groupEndpoint=HTTP_404:",
                "no endpoints: the application serves requests on virtual threads, and async-profiler samples their "
                        + "carrier threads");
    }
}
