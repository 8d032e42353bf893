package dev.cpuprofiler.realistic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.ChildJvm;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link RealisticProfileTest}'s check on JDK 25: the default install records with jfr-cpu-time there, and the
 * profile passes the same judgement as on the build's JDK.
 */
class RealisticProfileOnJdk25Test {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void defaultInstallOnJdk25() throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() < 25, "skipped: the test JVM is JDK 25+ already, "
                + "defaultInstallOnThisJdk covers it");
        String jdk25 = ChildJvm.jdk25OrSkip("RealisticProfileOnJdk25Test", "the jfr-cpu-time engine needs it")
                .toString();
        assertThat(RealisticProfileTest.check(jdk25).engine()).as("the profile's engine on JDK 25")
                .isEqualTo(RealisticProfileTest.expectedEngine(jdk25));
    }
}
