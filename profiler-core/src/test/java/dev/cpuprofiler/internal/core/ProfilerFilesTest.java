package dev.cpuprofiler.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.InvalidOptionException;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import dev.cpuprofiler.internal.engine.JfrExecutionEngine;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.testing.FakeTime;
import dev.cpuprofiler.internal.testing.OtherUser;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import dev.cpuprofiler.internal.testing.ScriptedEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the profiler writes, reads and deletes on disk, beside other people's files and other instances' files. */
class ProfilerFilesTest {

    private static final Instant SAME_SECOND = Instant.parse("2026-11-26T04:30:53Z");

    @TempDir
    Path dir;

    private CpuProfilerOptions options(Path outputDirectory) {
        CpuProfilerOptions o = new CpuProfilerOptions();
        o.setEnabled(false); // on-demand only
        o.setEngine(EngineChoice.JFR_EXECUTION);
        o.setOutputDirectory(outputDirectory);
        return o;
    }

    private DefaultCpuProfiler profiler(Path outputDirectory, String name) {
        return DefaultCpuProfiler.builder(options(outputDirectory))
                .engines(List.of(ScriptedEngine.working(JfrExecutionEngine.ID))).clock(new FakeTime(SAME_SECOND))
                .workDirectory(dir.resolve("work-" + name)).build();
    }

    /** Two applications on one output directory, each asked for a profile in the same second. */
    @Test
    void twoInstancesOnOneOutputDirectoryKeepEachOthersProfiles() throws Exception {
        Path out = dir.resolve("profiles");
        try (DefaultCpuProfiler a = profiler(out, "a"); DefaultCpuProfiler b = profiler(out, "b")) {
            a.start();
            b.start();
            RunningSession fromA = a.startOnDemand(Duration.ofSeconds(1));
            RunningSession fromB = b.startOnDemand(Duration.ofSeconds(1));
            for (RunningSession s : List.of(fromA, fromB)) {
                assertThat(s.outcome().toCompletableFuture().get(30, TimeUnit.SECONDS).status())
                        .isEqualTo(SessionOutcome.Status.COMPLETED);
            }

            assertThat(fromA.id()).isNotEqualTo(fromB.id()).startsWith("20261126T043053Z-manual-");
            assertThat(fromB.id()).startsWith("20261126T043053Z-manual-");
            for (String id : List.of(fromA.id(), fromB.id())) {
                assertThat(out.resolve(id + ".collapsed.txt")).content().contains(ScriptedEngine.FRAME);
                assertThat(out.resolve(id + ".html")).exists();
            }
            assertThat(a.profile("latest"))
                    .get().extracting(Profile::id).isEqualTo(fromA.id());
        }
    }

    @Test
    void anOutputDirectoryOthersMayWriteFailsTheStartNamingTheProperty() throws IOException {
        Assumptions.assumeTrue(posix(), "no POSIX permissions on this filesystem");
        Path shared = Files.createDirectories(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxr-x"));

        assertThatThrownBy(() -> profiler(shared, "a")).isInstanceOfSatisfying(InvalidOptionException.class,
                e -> assertThat(e.property()).isEqualTo("profiler.cpu.output-directory"))
                .hasMessageContaining("rwxrwxr-x");

        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> profiler(shared, "a")).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("rwxrwxrwx");
    }

    @Test
    void anOutputDirectoryAnotherUserOwnsFailsTheStartNamingTheProperty() throws IOException {
        Assumptions.assumeTrue(posix(), "no POSIX permissions on this filesystem");
        UserPrincipal nobody = OtherUser.nobody(dir);
        Assumptions.assumeTrue(nobody != null, "cannot give a directory to another user here");
        Path foreign = Files.createDirectories(dir.resolve("foreign"));
        Files.setPosixFilePermissions(foreign, PosixFilePermissions.fromString("rwx------"));
        Files.setOwner(foreign, nobody);

        assertThatThrownBy(() -> profiler(foreign, "a")).isInstanceOfSatisfying(InvalidOptionException.class,
                e -> assertThat(e.property()).isEqualTo("profiler.cpu.output-directory"))
                .hasMessageContaining("owned by nobody");
    }

    @Test
    void anOwnerOnlyOutputDirectoryOrOneNotThereYetStarts() throws IOException {
        Path own = Files.createDirectories(dir.resolve("own"));
        if (posix()) {
            Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwx------"));
        }
        profiler(own, "a").close();
        profiler(dir.resolve("not-yet"), "b").close();
        assertThat(dir.resolve("not-yet")).doesNotExist();
    }

    /** The application's own directory given as the work directory: closing deletes only what the profiler made. */
    @Test
    void closingLeavesAGivenWorkDirectoryAndWhatWasInIt() throws Exception {
        Path given = Files.createDirectories(dir.resolve("app-work"));
        Path theirs = Files.writeString(given.resolve("app-state.txt"), "the application's");
        ScriptedEngine engine = ScriptedEngine.working(JfrExecutionEngine.ID);
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(options(null)).engines(List.of(engine))
                .workDirectory(given).build()) {
            profiler.start();
            profiler.startOnDemand(Duration.ofSeconds(1)).outcome().toCompletableFuture().get(30, TimeUnit.SECONDS);
            Path used = engine.lastSettings().workDirectory();
            Files.createDirectories(used);
            Files.writeString(used.resolve("recording.jfr"), "what an engine left");
        }
        assertThat(given).isDirectory();
        assertThat(theirs).content().isEqualTo("the application's");
        try (var left = Files.list(given)) {
            assertThat(left).containsExactly(theirs);
        }
    }

    /** A link planted where a profile's recording was is not served (nor pushed): it could name any file. */
    @Test
    void aRecordingThatIsALinkIsNeitherServedNorPushed() throws IOException {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "not a recording");
        Path link = Files.createSymbolicLink(dir.resolve("20261126T043053Z-cpu-1.jfr"), secret);
        StackTree tree = new StackTree(64, 1000, false);
        Profile p = ProfileBuilder.profile("20261126T043053Z-cpu-1", SessionTrigger.CPU, tree.snapshot())
                .engine(EngineChoice.JFR_EXECUTION, "jfr").between(SAME_SECOND, SAME_SECOND.plusSeconds(1))
                .cpuPercent(85.0).jfrFile(link).build();

        assertThat(ProfileFormat.JFR.missing(p)).isPresent();
        assertThatThrownBy(() -> ProfileFormat.JFR.bytes(p, ProfileView.FULL)).isInstanceOf(IOException.class);
    }

    private boolean posix() {
        return dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
