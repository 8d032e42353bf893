package dev.cpuprofiler.realistic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * No secrets served with the default engine of each JDK: that of the JDK running the tests (pushing pprof, and ended
 * by a SIGTERM), and JDK 25's jfr-cpu-time (pushing JFR) next to the application's own JFR recording.
 */
class NoSecretsServedTest extends NoSecretsServedChecks {

    /**
     * Ends with a SIGTERM while an on-demand profile of 30 s records (sharing this child JVM, which costs most): the
     * process exits on its own within the bound, the profile is kept, cut short, in the output directory and pushed,
     * and searched for secrets with the rest.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void defaultEngineOnThisJdkAndASigtermMidSessionKeepsTheProfile() throws Exception {
        Outcome o = run("default", System.getProperty("java.home"), null, "pprof", true, List.of()).assertNoSecrets();
        assertThat(o.jfrStatus()).as("format=jfr of the default engine's profile (%s)", o.engine()).isEqualTo(200);
        o.kept().assertKept();
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void jdk25DefaultNextToTheApplicationsOwnJfr() throws Exception {
        Path jdk25 = ChildJvm.jdk25OrSkip("NoSecretsServedTest", "the jfr-cpu-time engine needs it");
        Path dir = workDirectory("jdk25");
        Path own = dir.resolve("application-own.jfr");
        Files.deleteIfExists(own);
        Outcome o = run("jdk25", jdk25.toString(), null, "jfr",
                List.of("-XX:StartFlightRecording:settings=default,dumponexit=true,filename=" + own)).assertNoSecrets();
        assertThat(o.engine()).isEqualTo("jfr-cpu-time");
        assertThat(o.jfrStatus()).as("format=jfr: filtered to the profile's own events, so still served")
                .isEqualTo(200);
        assertThat(o.notes()).as("the profile says its recording was filtered").contains("filtered out");
        // The control: the application's own recording holds the password, and the search finds it there.
        if (Files.isRegularFile(own) && Files.size(own) > 0) {
            assertThat(findings(Files.readAllBytes(own))).as("the search, on the application's own recording")
                    .anyMatch(f -> f.contains("system property"));
        } else {
            System.out.println("NoSecretsServedTest: the application's own recording was not dumped on exit; "
                    + "the positive control did not run");
        }
    }
}
