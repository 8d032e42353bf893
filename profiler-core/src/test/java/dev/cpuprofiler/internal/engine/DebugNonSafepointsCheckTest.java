package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class DebugNonSafepointsCheckTest {

    @Test
    void warnsWithTheCostAndTheFixWhenTheFlagIsOff() {
        assertThat(new DebugNonSafepointsCheck(name -> Optional.of("false")).warning()).hasValueSatisfying(w ->
                assertThat(w).contains("inlined").contains("-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints"));
    }

    @Test
    void warnsWhenTheFlagIsNotVisibleBecauseDiagnosticOptionsAreLocked() {
        assertThat(new DebugNonSafepointsCheck(name -> Optional.empty()).warning()).isPresent();
    }

    @Test
    void staysQuietWhenTheFlagIsOn() {
        assertThat(new DebugNonSafepointsCheck(name -> Optional.of("true")).warning()).isEmpty();
    }

    @Test
    void readsTheRealJvm() {
        // Surefire runs the tests with -XX:+DebugNonSafepoints (see the parent POM).
        assertThat(new DebugNonSafepointsCheck().warning()).isEmpty();
    }
}
