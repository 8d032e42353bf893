package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

/**
 * Before Java 21, JFR's "JFR Periodic Tasks" thread wakes every 10 ms for the rest of the JVM's life once a recording
 * has ended and none enables a periodic event (JDK-8302821): an idle service whose look-back armed once would pay
 * about 300 ms of CPU a minute. The keeper's recording makes it wait its one-second interval instead. Real JFR; the
 * thread's wake-ups are read from {@code /proc/self/task/<tid>/status}.
 */
class JfrPeriodicTaskKeeperTest {

    private static final String PERIODIC_THREAD = "JFR Periodic Ta";  // its name as the kernel keeps it (15 chars)
    private static final Duration WATCH = Duration.ofSeconds(2);

    @Test
    void afterOurRecordingEndsJfrsPeriodicThreadWakesAboutOnceASecondNotAHundredTimes() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc/self/task here to count wake-ups");
        try (JfrPeriodicTaskKeeper keeper = JfrPeriodicTaskKeeper.forThisJvm()) {
            keeper.beforeRecording();
            try (Recording ours = new Recording()) {  // as the look-back and a jfr-execution session record
                ours.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(20));
                ours.start();
                Thread.sleep(300);
                ours.stop();
            }
            long wakeUps = wakeUpsOver(WATCH);

            // Measured on Java 17.0.15: 980 wake-ups in 10 s without the keeper (its 10-ms minimum nap; 293 in 3 s
            // in this test), 10 with it (its 1-s wait interval); Java 25 (fixed there): none. 20 in 2 s leaves ten
            // times the keeper's figure and is a tenth of the spin's.
            System.out.printf("JFR Periodic Tasks: %d wake-ups in %d s after the recording ended (Java %d, keeper %s)%n",
                    wakeUps, WATCH.toSeconds(), Runtime.version().feature(), keeper.keeping() ? "open" : "not needed");
            assertThat(wakeUps).isLessThan(20);
            assertThat(keeper.keeping()).isEqualTo(Runtime.version().feature() < 21);
        }
        assertThat(FlightRecorder.getFlightRecorder().getRecordings())
                .noneMatch(r -> r.getName().equals(JfrPeriodicTaskKeeper.RECORDING_NAME));
    }

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

    private static long wakeUpsOver(Duration watch) throws Exception {
        Thread.sleep(1_000);  // past the last pass the recording's end caused
        long before = periodicThreadSwitches();
        Thread.sleep(watch.toMillis());
        return periodicThreadSwitches() - before;
    }

    /** Voluntary context switches of JFR's periodic thread: one per nap it wakes from. */
    private static long periodicThreadSwitches() throws IOException {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                if (Files.readString(task.resolve("comm")).trim().equals(PERIODIC_THREAD)) {
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                }
            }
        }
        throw new AssertionError("no JFR Periodic Tasks thread although JFR has recorded");
    }
}
