package dev.cpuprofiler.benchmarks.whatchanged;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * "What changed" judged from outside, as the issue judges it (its first bullet), once in {@code mvn verify}: the
 * application in a JVM of its own on this JDK, on platform threads, under open-loop load; after the calm phase and
 * the profiler's own reference of normal, (a) {@code /orbit} at 8x the rate gives it {@code TRAFFIC} with its ratios
 * within 20%, {@code /ledger} {@code UNCHANGED}; (b) {@code /ledger} at 10x the cost gives it {@code COST},
 * {@code /orbit} {@code UNCHANGED}, and {@code LedgerKernel.sum} is the first method that grew. About a minute.
 * {@code benchmarks/compare.sh} runs the same scenario and checks over virtual threads and JDK 25 too, repeatedly,
 * and reports the spread of each ratio with the noise floor of calm profiles.
 */
class WhatChangedTest {

    @Test
    void aTrafficRiseAndACostRiseAreToldApartPerEndpoint() throws Exception {
        WhatChangedScenario scenario = new WhatChangedScenario(WhatChangedScenario.Settings.standard());
        try (OrbitLedgerProcess app = OrbitLedgerProcess.start(Path.of(System.getProperty("java.home")),
                Runtime.version().feature(), false, scenario.settings())) {
            // A cost no endpoint takes is refused, in words, never echoed as markup.
            HttpResponse<String> refused = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    app.base().resolve("/ledger?cost=%3Cb%3E")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("text/plain"));
            assertThat(refused.body()).contains("cost must be a whole number from 0 to 100");

            WhatChangedScenario.Outcome outcome;
            try {
                outcome = scenario.run(app.base());
            } catch (RuntimeException e) {
                throw new AssertionError(e.getMessage() + "\nThe application printed:\n" + app.output(), e);
            }
            List<String> failures = WhatChangedChecks.failures(outcome, scenario.settings());
            assertThat(failures).as("%s: %s", app.describe(), outcome).isEmpty();
        }
    }
}
