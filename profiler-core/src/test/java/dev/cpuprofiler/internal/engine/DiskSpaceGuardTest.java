package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskSpaceGuardTest {

    private static final long MB = 1L << 20;

    @TempDir
    Path dir;

    private final List<Path> read = new ArrayList<>();

    private DiskSpaceGuard guard(long floor, long usable, long total, Path repository) {
        return new DiskSpaceGuard(floor, existing -> {
            read.add(existing);
            return new DiskSpaceGuard.Space(usable, total);
        }, new JfrRepository(Map.of("java.io.tmpdir", repository.toString())::get, () -> null));
    }

    @Test
    void theAutomaticFloorIsFivePercentBetween64And512Megabytes() {
        DiskSpaceGuard auto = DiskSpaceGuard.auto();

        assertThat(auto.floorFor(100 * MB)).isEqualTo(64 * MB);
        assertThat(auto.floorFor(4096 * MB)).isEqualTo((long) (4096 * MB * 0.05));
        assertThat(auto.floorFor(100_000 * MB)).isEqualTo(512 * MB);
        assertThat(new DiskSpaceGuard(10 * MB).floorFor(100_000 * MB)).isEqualTo(10 * MB);
    }

    @Test
    void refusesBelowTheFloorNamingWhoWritesThereAndThePropertyButNotThePath() {
        DiskSpaceGuard low = guard(DiskSpaceGuard.AUTO, 40 * MB, 1000 * MB, dir);

        // The reason is served (status, notes, a 503): it names the place's role; its path is in disk.places only.
        assertThat(low.refusal(dir, "the work directory")).hasValueSatisfying(r -> assertThat(r)
                .isEqualTo("only 40 MB of 1000 MB free on the filesystem of the work directory, below "
                        + "the profiler's floor of 64 MB (profiler.cpu.min-free-disk-space)")
                .doesNotContain(dir.toString()));
        assertThat(guard(DiskSpaceGuard.AUTO, 64 * MB, 1000 * MB, dir).refusal(dir, "x")).isEmpty();
    }

    @Test
    void aPathNotCreatedYetIsJudgedByItsNearestExistingParent() {
        Path missing = dir.resolve("not/yet/there");

        assertThat(guard(DiskSpaceGuard.AUTO, MB, 100 * MB, dir).refusal(missing, "x")).isPresent();
        assertThat(read).containsExactly(dir.toAbsolutePath());
    }

    @Test
    void zeroTurnsTheCheckOffAndAnUnreadableFilesystemIsNotARefusal() {
        assertThat(guard(0, 0, 100 * MB, dir).refusal(dir, "x")).isEmpty();
        assertThat(read).isEmpty();

        DiskSpaceGuard unreadable = new DiskSpaceGuard(DiskSpaceGuard.AUTO, existing -> {
            throw new IOException("statvfs failed");
        }, new JfrRepository());
        assertThat(unreadable.refusal(dir, "x")).isEmpty();
    }

    @Test
    void jfrIsRefusedForItsRepositoryWithTheReasonItMatters(@TempDir Path repository) {
        DiskSpaceGuard low = guard(DiskSpaceGuard.AUTO, MB, 100 * MB, repository);

        assertThat(low.jfrRefusal(dir)).hasValueSatisfying(r -> assertThat(r)
                .contains("filesystem of JFR's repository").contains("JFR stops the whole JVM")
                .doesNotContain(repository.toString()));
        assertThat(read.get(0)).isEqualTo(repository.toAbsolutePath());
    }

    @Test
    void readsTheRealFilesystem() {
        DiskSpaceGuard.Check check = new DiskSpaceGuard(DiskSpaceGuard.AUTO).check(dir).orElseThrow();

        assertThat(check.totalBytes()).isPositive();
        assertThat(check.usableBytes()).isBetween(0L, check.totalBytes());
        assertThat(check.floorBytes()).isBetween(64 * MB, 512 * MB);
    }

    @Test
    void jfrsRepositoryIsWhereJfrSaysThenWhereItWasToldThenTheTempDirectory() {
        Map<String, String> props = new java.util.HashMap<>(Map.of("java.io.tmpdir", "/tmp"));
        JfrRepository told = new JfrRepository(props::get, () -> "stackdepth=512,repository=/data/jfr,maxchunksize=12m");
        JfrRepository untold = new JfrRepository(props::get, () -> "");

        assertThat(untold.location()).isEqualTo(Path.of("/tmp"));
        assertThat(told.location()).isEqualTo(Path.of("/data/jfr"));
        props.put("jdk.jfr.repository", "/data/jfr/2026_11_23_06_36_10_24196");
        assertThat(told.location()).isEqualTo(Path.of("/data/jfr/2026_11_23_06_36_10_24196"));
    }
}
