package dev.cpuprofiler.realistic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link RealisticProfileTest}'s check on JDK 25, in the shop that serves no secrets next to the application's own
 * JFR recording ({@link NoSecretsServedChecks}): the default install records with jfr-cpu-time there and pushes JFR,
 * its CPU-triggered profile's JFR is filtered down to the profile's own events while the application's recording
 * runs, and the realistic profile, recorded once that recording is stopped, passes the same judgement as on the
 * build's JDK.
 */
class RealisticProfileOnJdk25Test extends NoSecretsServedChecks {

    private static final String OWN = "application-own";

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void defaultInstallOnJdk25NextToTheApplicationsOwnJfr() throws Exception {
        Path jdk25 = ChildJvm.jdk25OrSkip("RealisticProfileOnJdk25Test", "the jfr-cpu-time engine needs it");
        String name = "jdk25-own-jfr";
        Path own = workDirectory(name).resolve(OWN + ".jfr");
        Files.deleteIfExists(own);
        Judged judged = RealisticProfileTest.judgedProfile(jdk25.toString(), name);
        Outcome o = run(name, jdk25.toString(), RealisticProfileTest.forcedEngine(), "jfr", false,
                // JFR starts before the profiler here, so it gets the depth the profiler would raise it to (the
                // default max-stack-depth), as the profiler's warning advises: the judged stacks are a default
                // install's, not cut at JFR's 64 frames.
                List.of("-XX:StartFlightRecording:name=" + OWN + ",settings=default,filename=" + own,
                        "-XX:FlightRecorderOptions:stackdepth=512"),
                (app, load, loadStarted) -> {
                    stop(jdk25, app); // the judged profile is recorded as its bounds were measured: on its own
                    return judged.record(app, load, loadStarted);
                });
        SoftAssertions soft = RealisticProfileTest.judge(o.judged(), jdk25.toString());
        soft.check(o::assertNoSecrets);
        soft.assertThat(o.engine()).as("the CPU-triggered profile's engine")
                .isEqualTo(RealisticProfileTest.expectedEngine(jdk25.toString()));
        soft.assertThat(o.jfrStatus()).as("format=jfr: filtered to the profile's own events, so still served")
                .isEqualTo(200);
        if (o.engine().startsWith("jfr-")) { // unless -Drealistic.engine forced another
            soft.assertThat(o.notes()).as("the profile says its recording was filtered").contains("filtered out");
        }
        // The control: the application's own recording holds the password, and the search finds it there.
        soft.assertThat(findings(Files.readAllBytes(own))).as("the search, on the application's own recording")
                .anyMatch(f -> f.contains("system property"));
        soft.assertAll();
    }

    /** Stops the application's own recording with JDK 25's {@code jcmd}, which writes it to its file. */
    private static void stop(Path jdk25, ChildApp app) throws Exception {
        Process jcmd = new ProcessBuilder(jdk25.resolve("bin").resolve("jcmd").toString(), Long.toString(app.pid()),
                "JFR.stop", "name=" + OWN).redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(jcmd.waitFor(30, TimeUnit.SECONDS)).as("jcmd JFR.stop ended: %s", out).isTrue();
        assertThat(jcmd.exitValue()).as("jcmd JFR.stop: %s", out).isZero();
    }
}
