package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import jdk.jfr.FlightRecorder;
import org.junit.jupiter.api.Test;

/**
 * When the keeper opens its recording: only on a JDK whose JFR periodic thread spins once a recording has ended
 * (JDK-8302821, before Java 21), once however many recordings follow, one for each profiler in the JVM, never after
 * it closed. Real JFR. What it saves, JFR's periodic thread waking once a second instead of every 10 ms after the
 * look-back disarmed, is {@code IdleLookbackTest}'s, in a JVM of its own.
 */
class JfrPeriodicTaskKeeperTest {

    @Test
    void opensOnlyWhereTheJdkNeedsItAndNothingOnceClosed() {
        try (JfrPeriodicTaskKeeper fixed = JfrPeriodicTaskKeeper.forRelease(21)) {
            fixed.beforeRecording();
            assertThat(fixed.keeping()).isFalse();
        }
        JfrPeriodicTaskKeeper old = JfrPeriodicTaskKeeper.forRelease(17);
        old.beforeRecording();
        old.beforeRecording();  // once, however many recordings follow
        assertThat(old.keeping()).isTrue();
        assertThat(FlightRecorder.getFlightRecorder().getRecordings())
                .filteredOn(r -> r.getName().equals(JfrPeriodicTaskKeeper.RECORDING_NAME)).singleElement()
                .satisfies(r -> assertThat(r.isToDisk()).isFalse());
        try (JfrPeriodicTaskKeeper another = JfrPeriodicTaskKeeper.forRelease(17)) {
            another.beforeRecording();  // a second profiler in the same JVM (two application contexts)
            assertThat(another.keeping()).isTrue();
        }
        assertThat(old.keeping()).isTrue();
        old.close();
        old.beforeRecording();
        assertThat(old.keeping()).isFalse();
        assertThat(FlightRecorder.getFlightRecorder().getRecordings())
                .noneMatch(r -> r.getName().equals(JfrPeriodicTaskKeeper.RECORDING_NAME));
    }
}
