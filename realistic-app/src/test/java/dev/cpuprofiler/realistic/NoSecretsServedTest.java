package dev.cpuprofiler.realistic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** No secrets served with the default engine of the JDK running the tests, and what the opt-in brings back. */
class NoSecretsServedTest extends NoSecretsServedChecks {

    /**
     * Ends with a SIGTERM while an on-demand profile of 30 s records (sharing this child JVM, which costs most): the
     * process exits on its own within the bound, the profile is kept, cut short, in the output directory and pushed,
     * and searched for secrets with the rest.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void defaultEngineOnThisJdkAndASigtermMidSessionKeepsTheProfile() throws Exception {
        Outcome o = run("default", System.getProperty("java.home"), null, "jfr", true, List.of()).assertNoSecrets();
        assertThat(o.jfrStatus()).as("format=jfr of the default engine's profile (%s)", o.engine()).isEqualTo(200);
        o.kept().assertKept();
    }

    /**
     * {@code profiler.cpu.jfr.include-system-info=true}: the operator's opt-in puts the JVM's system properties and
     * arguments back into the JFR recording, and only there: the other formats, the status and the page still hold
     * none of the secrets, and the environment is never recorded.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void optInPutsTheSystemInformationBackIntoTheJfrOnly() throws Exception {
        Outcome o = run("opt-in", System.getProperty("java.home"), null, "jfr", List.of(),
                "--profiler.cpu.jfr.include-system-info=true");
        assertThat(o.findings()).as("what the opt-in brings back")
                .anyMatch(f -> f.contains("format=jfr ") && f.contains("the system property in a "
                        + "jdk.InitialSystemProperty event"))
                .anyMatch(f -> f.contains("format=jfr ") && f.contains("the program argument"))
                .anyMatch(f -> f.startsWith("push ") && f.contains("the system property"))
                .anyMatch(f -> f.contains(".jfr: ") && f.contains("the system property"))
                .noneMatch(f -> f.contains("environment variable"))
                .allMatch(f -> f.contains("format=jfr ") || f.contains(".jfr: ") || f.startsWith("push /pyroscope"));
    }
}
