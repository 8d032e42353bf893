package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JfrStackDepthTest {

    @TempDir
    Path tmp;

    private static final String CONFIG_64 = "Current configuration:\n\nRepository path: N/A\nStack depth: 64\n";
    private static final String DEFAULTS = CONFIG_64 + "Global buffer count: 20\nGlobal buffer size: 512.0 kB\n"
            + "Thread buffer size: 8.0 kB\nMemory size: 10.0 MB\n";

    @Test
    void raisesTheDepthWhileJfrIsNotYetInitialised() {
        List<String> calls = new ArrayList<>();
        JfrSetup depth = new JfrSetup(args -> {
            calls.add(String.join(" ", args));
            return args.length == 0 ? CONFIG_64 : "Stack depth: 512\n";
        }, () -> false);

        JfrSetup.State state = depth.ensure(512);

        assertThat(calls).containsExactly("", "stackdepth=512");
        assertThat(state.raised()).isTrue();
        assertThat(state.inForce()).isEqualTo(512);
        assertThat(state.note()).isEmpty();
        assertThat(depth.ensure(1000)).isSameAs(state); // settled once
        assertThat(calls).hasSize(2);
    }

    @Test
    void lowersJfrsGlobalBuffersWithTheDepthUnlessTheJvmWasGivenJfrOptions() {
        List<String> calls = new ArrayList<>();
        JfrSetup.ConfigureCommand jfr = args -> {
            calls.add(String.join(" ", args));
            return args.length == 0 ? DEFAULTS : "Stack depth: 512\nGlobal buffer count: 4\n";
        };
        assertThat(new JfrSetup(jfr, () -> false).ensure(512).raised()).isTrue();
        assertThat(calls).containsExactly("", "stackdepth=512 globalbuffercount=4");

        calls.clear();
        new JfrSetup(jfr, () -> false, true, () -> { }).ensure(512);
        assertThat(calls).containsExactly("", "stackdepth=512");

        calls.clear();
        new JfrSetup(args -> {
            calls.add(String.join(" ", args));
            return args.length == 0 ? DEFAULTS.replace("64", "1024") : "Global buffer count: 4\n";
        }, () -> false).ensure(512);
        assertThat(calls).containsExactly("", "globalbuffercount=4");

        calls.clear();
        new JfrSetup(args -> {
            calls.add(String.join(" ", args));
            return DEFAULTS.replace("count: 20", "count: 40").replace("64", "1024");
        }, () -> false).ensure(512);
        assertThat(calls).containsExactly(""); // a buffer count someone chose

        calls.clear();
        new JfrSetup(args -> {
            calls.add(String.join(" ", args));
            return DEFAULTS.replace("64", "1024");
        }, () -> true).ensure(512);
        assertThat(calls).containsExactly(""); // JFR already runs: nothing changes under it
    }

    @Test
    void saysWhatDepthIsInForceWhenJfrWasStartedFirst() {
        List<String> calls = new ArrayList<>();
        JfrSetup depth = new JfrSetup(args -> {
            calls.add(String.join(" ", args));
            return CONFIG_64;
        }, () -> true);

        JfrSetup.State state = depth.ensure(512);

        assertThat(calls).containsExactly(""); // never changed under a running JFR
        assertThat(state.raised()).isFalse();
        assertThat(state.inForce()).isEqualTo(64);
        assertThat(state.note()).hasValueSatisfying(n -> assertThat(n).contains("only 64 frames")
                .contains("-XX:FlightRecorderOptions:stackdepth=512"));
    }

    @Test
    void leavesADeeperSettingAloneAndClampsToJfrsMaximum() {
        JfrSetup deeper = new JfrSetup(args -> "Stack depth: 1024", () -> false);
        assertThat(deeper.ensure(512)).satisfies(s -> {
            assertThat(s.raised()).isFalse();
            assertThat(s.inForce()).isEqualTo(1024);
            assertThat(s.note()).isEmpty();
        });

        List<String> calls = new ArrayList<>();
        JfrSetup clamped = new JfrSetup(args -> {
            calls.add(String.join(" ", args));
            return args.length == 0 ? CONFIG_64 : "Stack depth: 2048";
        }, () -> false);
        assertThat(clamped.ensure(8192).wanted()).isEqualTo(JfrSetup.JFR_MAX);
        assertThat(calls).contains("stackdepth=2048");
    }

    @Test
    void aFailingCommandCostsANoteNotAnException() {
        JfrSetup depth = new JfrSetup(args -> {
            throw new IllegalStateException("no DiagnosticCommand MBean");
        }, () -> false);

        JfrSetup.State state = depth.ensure(512);

        assertThat(state.inForce()).isEqualTo(-1);
        assertThat(state.note()).hasValueSatisfying(n -> assertThat(n).contains("could not be read"));
    }

    @Test
    void realJfrKeepsDeepStacksWholeOnceRaised() throws Exception {
        List<String> out = runInOwnJvm("-XX:NativeMemoryTracking=summary");

        System.out.println("[jfr-depth] default JVM: " + out);
        assertThat(out).anySatisfy(l -> assertThat(l).startsWith("STATE 512 true -"));
        assertThat(out).contains("BUFFERS 4");
        // JFR's native memory after a recording: 15.5 MB with its 20 default buffers, 7.4 MB with 4 (JDK 17 and 25,
        // NMT's Tracing, the same at every run); the bound sits between.
        String tracing = out.stream().filter(l -> l.startsWith("TRACING ")).findFirst().orElseThrow();
        assertThat(Integer.parseInt(tracing.substring(8))).as(tracing).isLessThan(11 * 1024);
        String sampled = out.stream().filter(l -> l.startsWith("SAMPLED")).findFirst().orElseThrow();
        String[] parts = sampled.split(" ");
        assertThat(Integer.parseInt(parts[1])).as(sampled).isGreaterThanOrEqualTo(300);
        assertThat(parts[2]).as(sampled).isEqualTo("false");
    }

    @Test
    void realJfrStartedBeforeTheProfilerKeepsItsDepthAndSaysSo() throws Exception {
        // The recording goes to this test's own temp directory, removed afterwards (it was left in java.io.tmpdir).
        List<String> out = runInOwnJvm("-XX:StartFlightRecording:filename=" + tmp.resolve("jfr-depth-test.jfr"));

        System.out.println("[jfr-depth] -XX:StartFlightRecording: " + out);
        assertThat(out).anySatisfy(l -> assertThat(l).startsWith("STATE 64 false ")
                .contains("-XX:FlightRecorderOptions:stackdepth=512"));
        String sampled = out.stream().filter(l -> l.startsWith("SAMPLED")).findFirst().orElseThrow();
        assertThat(sampled).as("JFR's 64 frames, cut").startsWith("SAMPLED 64 true ");
    }

    private static List<String> runInOwnJvm(String... jvmOptions) throws IOException, InterruptedException {
        // Interpreted only: depth is this test's subject, and compiled frames made JFR's walk of the spinning burner
        // the variable (one run under a one-CPU hog got no sample of it in 20 s without DebugNonSafepoints, one CI
        // run with it kept 2 frames of every sample). Interpreted frames are walked the same way every time.
        ChildJvm.Finished child = ChildJvm.of(JfrStackDepthChild.class).withOptions("-Xint")
                .withOptions(jvmOptions).run(Duration.ofSeconds(60));
        assertThat(child.exited()).as(child.output()).isTrue();
        assertThat(child.exitValue()).as(child.output()).isZero();
        return child.lines("STATE", "SAMPLED", "BUFFERS", "TRACING");
    }
}
