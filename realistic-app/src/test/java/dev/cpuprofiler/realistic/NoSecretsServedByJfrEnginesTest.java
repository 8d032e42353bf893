package dev.cpuprofiler.realistic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a JFR engine serves with the opt-in: jfr-execution, on the JDK running the tests. */
class NoSecretsServedByJfrEnginesTest extends NoSecretsServedChecks {

    /**
     * jfr-execution with {@code profiler.cpu.jfr.include-system-info=true}: the operator's opt-in puts the JVM's system
     * properties and arguments back into the JFR recording, and only there: the other formats, the status and the page
     * still hold none of the secrets, and the environment is never recorded. (That jfr-execution's recording holds no
     * system information without the opt-in is profiler-core's {@code SystemInfoInRecordingsTest}; the formats, the
     * page and the pushes without it are searched in the other two applications.)
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void jfrExecutionWithTheOptInPutsTheSystemInformationBackIntoTheJfrOnly() throws Exception {
        Outcome o = run("jfr-execution-opt-in", System.getProperty("java.home"), "jfr-execution", "jfr", List.of(),
                "--profiler.cpu.jfr.include-system-info=true");
        assertThat(o.engine()).isEqualTo("jfr-execution");
        assertThat(o.jfrStatus()).as("format=jfr of a jfr-execution profile: kept, as nothing else recorded")
                .isEqualTo(200);
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
