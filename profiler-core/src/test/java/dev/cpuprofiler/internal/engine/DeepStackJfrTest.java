package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.ChildJvm;
import dev.cpuprofiler.fixtures.DeepBurner;
import dev.cpuprofiler.internal.stack.StackTree;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JFR engines with a thread 4000 frames deep and max-stack-depth 8192: JFR records at most 2048 frames, so the
 * profile keeps the 2048 leaf-most under a {@code [truncated]} root, counts those samples as cut and says why in a
 * note, rather than passing the partial stack off as whole. In a JVM of its own, where the profiler can still raise
 * JFR's stack depth (to its maximum, 2048) before JFR starts.
 */
class DeepStackJfrTest {

    @Test
    void jfrEnginesKeep2048FramesAndSayTheStackWasCut() throws Exception {
        List<String> engines = new ArrayList<>(List.of(JfrExecutionEngine.ID));
        if (EnginesHere.cpuTimeExpected()) {
            engines.add(JfrCpuTimeEngine.ID);
        }
        ChildJvm.Finished child = ChildJvm.of(DeepStackJfrChild.class, engines.toArray(String[]::new)).withOptions(
                "-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints",
                // JDK 17's JFR sampler, when the recursion's frames were compiled while on the stack, intermittently
                // (about one run in three here) drops the thread's samples or records 3-frame stacks not marked as
                // truncated: a JFR limitation this test is not about. Interpreted, they are walked every time.
                "-XX:CompileCommand=quiet", "-XX:CompileCommand=exclude," + DeepBurner.class.getName() + "::recurse")
                .run(Duration.ofSeconds(120));
        String out = child.output();
        assertThat(child.exited()).as(out).isTrue();
        assertThat(child.exitValue()).as(out).isZero();

        List<String> lines = out.lines().filter(l -> l.startsWith("PROFILE ")).toList();
        lines.forEach(l -> System.out.println("[deep " + l + "]"));
        assertThat(lines).as(out).hasSize(engines.size());
        for (int i = 0; i < engines.size(); i++) {
            String line = lines.get(i);
            assertThat(line).startsWith("PROFILE " + engines.get(i) + " ");
            // JFR keeps the 2048 leaf-most frames under [truncated]: burn, spin and 2046 recursion levels, or, for a
            // sample taken in spin itself (between two calls of burn), spin and 2047 levels.
            assertThat(line).as(line).contains(" depth=2049 ", " first=" + StackTree.TRUNCATED + " ");
            int spinPath = Integer.parseInt(field(line, "spinPath"));
            assertThat(spinPath).as(line).isBetween(2048, 2049);
            assertThat(Integer.parseInt(field(line, "recurse"))).as("all but [truncated] and spin recurse: " + line)
                    .isEqualTo(spinPath - 2);
            assertThat(Long.parseLong(field(line, "cut"))).as("samples counted as cut: " + line).isPositive();
            assertThat(line.substring(line.indexOf(" notes="))).as(line)
                    .contains("JFR records at most 2048 frames per stack").contains("start at [truncated]")
                    .doesNotContain("cut to fit the tree's limits");
        }
    }

    private static String field(String line, String name) {
        int at = line.indexOf(" " + name + "=") + name.length() + 2;
        return line.substring(at, line.indexOf(' ', at));
    }
}
