package dev.cpuprofiler.format;

import static dev.cpuprofiler.format.ComparedProfiles.AUDIT;
import static dev.cpuprofiler.format.ComparedProfiles.LEDGER;
import static dev.cpuprofiler.format.ComparedProfiles.ORBIT;
import static dev.cpuprofiler.format.ComparedProfiles.WARMUP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.format.ProfileView.Compare;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command docs/what-changed.md gives, run: {@code go tool pprof -diff_base=ref.pb.gz profile.pb.gz} on the pprof of
 * a profile and the one {@code ?compare=reference} downloads, and it finds what grew by how much CPU. Skipped, with the
 * reason printed, where Go is not installed ({@code .ci/run} installs it).
 */
class PprofDiffBaseGoToolTest {

    @TempDir
    Path dir;

    @Test
    void goToolPprofDiffBaseShowsWhatGrew() throws Exception {
        String go = PprofGoToolTest.goVersion();
        if (go == null) {
            System.out.println("[pprof-diff-base] skipped: 'go' is not on the PATH (install golang-go to run it)");
        }
        Assumptions.assumeTrue(go != null, "'go' is not on the PATH (install golang-go to run it)");
        Profile cost = ComparedProfiles.cost();
        ProfileView plain = ProfileView.of(LookbackView.INCLUDE);
        Path profile = Files.write(dir.resolve("cost.pb.gz"), Written.bytes(ProfileFormat.PPROF, cost, plain));
        Path reference = Files.write(dir.resolve("ref.pb.gz"), Written.bytes(ProfileFormat.PPROF, cost,
                plain.comparedWith(Compare.with(ComparedProfiles.reference()))));

        String top = PprofGoToolTest.run(List.of("go", "tool", "pprof", "-top", "-unit=s",
                "-nodefraction=0", "-diff_base=" + reference, profile.toString()));
        System.out.printf("[pprof-diff-base] %s:%n%s%n", go, top);

        // Seconds of CPU, the profile's less the reference's as recorded: 96 s of audit the reference never ran,
        // 24 - 4 s of Ledger.sum, 13.5 - 4.5 s of Orbit.step, and the 0.5 s of warm-up only the reference had.
        assertThat(flat(top, AUDIT)).isEqualTo("96s");
        assertThat(flat(top, LEDGER)).isEqualTo("20s");
        assertThat(flat(top, ORBIT)).isEqualTo("9s");
        assertThat(flat(top, WARMUP)).isEqualTo("-0.50s");

        // -normalize scales the profile to the reference's total (13,500 samples to 1,000): shares. Audit's 71% of
        // the profile is 7.11 s of the reference's 10 s; Orbit.step's 10% is 1 s against its 4.5 s there.
        String shares = PprofGoToolTest.run(List.of("go", "tool", "pprof", "-top", "-unit=s", "-nodefraction=0",
                "-normalize", "-diff_base=" + reference, profile.toString()));
        System.out.printf("[pprof-diff-base] -normalize:%n%s%n", shares);
        assertThat(flat(shares, AUDIT)).isEqualTo("7.11s");
        assertThat(flat(shares, ORBIT)).isEqualTo("-3.50s");
    }

    /** The flat column of a function's line in {@code -top}: {@code flat flat% sum% cum cum% name}. */
    private static String flat(String top, String function) {
        Matcher line = Pattern.compile("(?m)^\\s*(\\S+)\\s+\\S+%\\s+\\S+%\\s+\\S+\\s+\\S+%\\s+" + Pattern.quote(function)
                + "\\s*$").matcher(top);
        assertThat(line.find()).as("a line for %s in go tool pprof -top:%n%s", function, top).isTrue();
        return line.group(1);
    }
}
