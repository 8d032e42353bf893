package dev.cpuprofiler.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A full or filling disk under JFR's repository and the profiler's work directory, on a real 96 MB tmpfs that is the
 * child JVM's {@code java.io.tmpdir} (the automatic floor there is 64 MB). JFR stops the whole JVM when it cannot write
 * its repository: the application must stay up, and say why it could not record.
 */
class DiskSpaceFaultTest {

    private static Path mount;

    @BeforeAll
    static void mountSmallFilesystem() throws Exception {
        Assumptions.assumeTrue(System.getProperty("os.name").toLowerCase().startsWith("linux"),
                () -> skip("mounting a tmpfs needs Linux"));
        Path dir = Path.of("target", "disk-fault-" + ProcessHandle.current().pid()).toAbsolutePath();
        Files.createDirectories(dir);
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=96m", "tmpfs", dir.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean mounted = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        Assumptions.assumeTrue(mounted, () -> skip("cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): " + out.strip()));
        mount = dir;
    }

    @AfterAll
    static void unmount() throws Exception {
        if (mount != null) {
            new ProcessBuilder("umount", mount.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
            Files.deleteIfExists(mount);
        }
    }

    @BeforeEach
    void emptyTheDisk() throws IOException {
        try (Stream<Path> walk = Files.walk(mount)) {
            walk.sorted(Comparator.reverseOrder()).filter(p -> !p.equals(mount)).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void withoutTheFloorAFullRepositoryStopsTheJvm() throws Exception {
        // What the guard prevents, so the tests below can fail: look-back's JFR stream on a full disk.
        Child child = run("-Dfloor=0", "full", "jfr-execution");

        assertThat(child.output).contains("An irrecoverable error in Jfr");
        assertThat(child.output).doesNotContain("ALIVE");
    }

    @Test
    void aFullTempDirectoryCostsTheProfilesNotTheApplication() throws Exception {
        Child child = run("full", "auto");

        assertThat(child.exit).as(child.output).isZero();
        assertThat(child.output).contains("ALIVE").doesNotContain("irrecoverable");
        assertThat(child.line("LOOKBACK")).startsWith("LOOKBACK UNAVAILABLE only 0 MB of 96 MB free")
                .contains("JFR's repository").contains("profiler.cpu.min-free-disk-space");
        assertThat(child.line("REFUSED")).contains("no engine can record")
                .contains("jfr-execution: only 0 MB of 96 MB free");
        assertThat(child.line("DISK")).contains("below the profiler's floor of 64 MB");
    }

    @Test
    void aReadOnlyTempDirectoryCostsTheProfilesNotTheApplication() throws Exception {
        remount("ro");
        try {
            Child child = run("full", "jfr-execution");

            assertThat(child.exit).as(child.output).isZero();
            assertThat(child.output).contains("ALIVE");
            assertThat(child.line("LOOKBACK")).startsWith("LOOKBACK UNAVAILABLE").contains("cannot be written");
            assertThat(child.line("REFUSED")).contains("jfr-execution cannot record").contains("cannot be written");
            assertThat(child.line("DISK")).contains("read-only");
        } finally {
            remount("rw");
        }
    }

    private static void remount(String mode) throws Exception {
        Process p = new ProcessBuilder("mount", "-o", "remount," + mode, mount.toString()).inheritIO().start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0).as("remount " + mode).isTrue();
    }

    @Test
    void aDiskFillingUnderAJfrRecordingEndsItEarlyAndKeepsItsSamples() throws Exception {
        Child child = run("fill", "jfr-execution", "32");

        assertEndedEarlyWithItsSamples(child, "JFR's repository");
    }

    @Test
    void aDiskFillingUnderTheDefaultEngineEndsItEarlyAndKeepsItsSamples() throws Exception {
        Child child = run("fill", "auto", "32");

        // async-profiler on JDK 17-24 (its file is in the work directory), jfr-cpu-time on 25 (JFR's repository).
        assertEndedEarlyWithItsSamples(child, "free on the filesystem of");
    }

    private static void assertEndedEarlyWithItsSamples(Child child, String where) {
        assertThat(child.exit).as(child.output).isZero();
        assertThat(child.output).contains("ALIVE").doesNotContain("irrecoverable");
        assertThat(child.line("OUTCOME")).isEqualTo("OUTCOME COMPLETED null");
        String profile = child.line("PROFILE");
        String[] parts = profile.split(" ", 4);
        assertThat(Long.parseLong(parts[1])).as(profile).isPositive();
        assertThat(Long.parseLong(parts[2])).as("stopped well before its 8 s: " + profile).isLessThan(7000);
        assertThat(parts[3]).contains("stopped after").contains(where)
                .contains("below the profiler's floor of 64 MB");
    }

    private record Child(int exit, String output) {
        String line(String prefix) {
            return output.lines().filter(l -> l.startsWith(prefix + " ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no " + prefix + " line in:\n" + output));
        }
    }

    private static Child run(String... args) throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(List.of("-Djava.io.tmpdir=" + mount));
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty() && rest.get(0).startsWith("-D")) {
            options.add(rest.remove(0));
        }
        ChildJvm.Finished child = ChildJvm.of(DiskFullChild.class, rest.toArray(String[]::new)).lean()
                .withOptions(options.toArray(String[]::new)).run(Duration.ofSeconds(90));
        assertThat(child.exited()).as(child.output()).isTrue();
        System.out.println("[disk-fault] " + String.join(" ", rest) + " -> exit " + child.exitValue());
        return new Child(child.exitValue(), child.output());
    }

    private static String skip(String reason) {
        System.out.println("[disk-fault] skipped: " + reason);
        return reason;
    }
}
