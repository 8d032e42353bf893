package dev.cpuprofiler.internal.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpuprofiler.fixtures.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole measurement on a real kernel: a JVM born inside a cgroup with a 1.5-CPU quota, one thread burning one
 * core, must be measured from the cgroup's counter and read 66.7% (1 / 1.5), not 50% (availableProcessors rounds
 * the quota up to 2). Needs root and a writable cgroup hierarchy; skips with the reason elsewhere.
 */
class RealCgroupQuotaTest {

    private static final long QUOTA = 150_000;
    private static final long PERIOD = 100_000;

    @TempDir
    Path tmp;

    @Test
    void oneBusyCoreInAOneAndAHalfCpuCgroupReadsTwoThirds() throws Exception {
        CgroupDiscovery.Layout layout;
        try {
            layout = new CgroupDiscovery(Path.of("/")).discover();
        } catch (IOException e) {
            skip("no cgroup information on this machine: " + e.getMessage());
            return;
        }
        String name = "cpuprofiler-test-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
        List<Path> created = new ArrayList<>();
        Process child = null;
        try {
            List<Path> groups = createQuotaCgroup(layout, name, created);
            child = startChildInside(groups);
            boolean finished = child.waitFor(90, TimeUnit.SECONDS);
            String output = Files.readString(tmp.resolve("child.out"));
            assertThat(finished).as("child JVM finished in time; output:%n%s", output).isTrue();
            assertThat(child.exitValue()).as("child exit code; output:%n%s", output).isZero();

            Map<String, String> result = parseResult(output);
            double percent = Double.parseDouble(result.get("meanPercent"));
            double burnerCores = Double.parseDouble(result.get("burnerCores"));
            double processCores = Double.parseDouble(result.get("processCores"));
            System.out.println("Real cgroup " + groups + ": " + result);

            assertThat(result.get("kind")).as(output).isIn("cgroup-v1", "cgroup-v2");
            assertThat(Double.parseDouble(result.get("cpus"))).as(output).isEqualTo(1.5);
            assertThat(Integer.parseInt(result.get("samples"))).as(output).isGreaterThanOrEqualTo(4);
            // What the cgroup really used, divided by 1.5 (never by 2), whatever else runs on the machine...
            assertThat(percent).as("mean CPU%% vs the process's own CPU time / 1.5; child output:%n%s", output)
                    .isCloseTo(processCores / 1.5 * 100, Offset.offset(3.0));
            // ...which for one busy core out of 1.5 is 66.7%, unless other work kept the burner off its core.
            if (burnerCores >= 0.96) {
                assertThat(percent).as("mean CPU%% for one busy core; child output:%n%s", output)
                        .isCloseTo(100.0 / 1.5, Offset.offset(3.0));
            } else {
                System.out.println("The machine is busy: the burner got only " + burnerCores
                        + " cores, so 66.7% was not expected");
            }
            assertThat(percent).as("not normalised by availableProcessors (2)").isGreaterThan(processCores / 2 * 100 + 5);
        } finally {
            if (child != null && child.isAlive()) {
                child.destroyForcibly();
                child.waitFor(30, TimeUnit.SECONDS);
            }
            removeAll(created);
        }
    }

    /** Creates the cgroup next to where this JVM sits, with the quota; returns the directories to join. */
    private List<Path> createQuotaCgroup(CgroupDiscovery.Layout layout, String name, List<Path> created)
            throws IOException {
        if (layout.v1Cpu() != null && layout.v1Cpuacct() != null) {
            Set<Path> dirs = new LinkedHashSet<>();
            dirs.add(Path.of(layout.v1Cpu().path(), name));
            dirs.add(Path.of(layout.v1Cpuacct().path(), name)); // the same directory when co-mounted
            for (Path dir : dirs) {
                mkdirOrSkip(dir, created);
            }
            Path cpu = Path.of(layout.v1Cpu().path(), name);
            Files.writeString(cpu.resolve("cpu.cfs_period_us"), Long.toString(PERIOD));
            Files.writeString(cpu.resolve("cpu.cfs_quota_us"), Long.toString(QUOTA));
            return List.copyOf(dirs);
        }
        if (layout.v2() != null) {
            Path parent = Path.of(layout.v2().path());
            Path dir = parent.resolve(name);
            mkdirOrSkip(dir, created);
            if (!Files.exists(dir.resolve("cpu.max"))) {
                try {
                    Files.writeString(parent.resolve("cgroup.subtree_control"), "+cpu");
                } catch (IOException e) {
                    skip("cannot enable the cpu controller under " + parent + ": " + e);
                }
            }
            if (!Files.exists(dir.resolve("cpu.max"))) {
                skip("the cgroup v2 cpu controller is not available in " + dir);
            }
            Files.writeString(dir.resolve("cpu.max"), QUOTA + " " + PERIOD);
            return List.of(dir);
        }
        skip("this machine has neither cgroup v1 cpu+cpuacct nor a cgroup v2 hierarchy");
        return List.of();
    }

    private static void mkdirOrSkip(Path dir, List<Path> created) {
        try {
            Files.createDirectory(dir);
            created.add(dir);
        } catch (IOException e) {
            skip("cannot create a cgroup (needs root and a writable cgroup hierarchy): " + dir + ": " + e);
        }
    }

    /** The shell joins the cgroups first and then becomes the JVM, so every JVM thread is born inside. */
    private Process startChildInside(List<Path> groups) throws IOException {
        StringBuilder script = new StringBuilder();
        for (Path group : groups) {
            script.append("echo $$ > '").append(group.resolve("cgroup.procs")).append("' && ");
        }
        script.append("exec \"$@\"");
        List<String> command = new ArrayList<>(List.of("sh", "-c", script.toString(), "sh"));
        command.addAll(ChildJvm.of(RealCgroupQuotaChild.class).lean().command());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectErrorStream(true);
        builder.redirectOutput(tmp.resolve("child.out").toFile());
        return builder.start();
    }

    private static Map<String, String> parseResult(String output) {
        String line = output.lines().filter(l -> l.startsWith("RESULT ")).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no RESULT line from the child JVM:\n" + output));
        Map<String, String> result = new HashMap<>();
        for (String field : line.substring("RESULT ".length()).split(" ")) {
            int eq = field.indexOf('=');
            result.put(field.substring(0, eq), field.substring(eq + 1));
        }
        return result;
    }

    /** Removes the cgroups, deepest last created first; a just-emptied cgroup can be busy for a moment. */
    private static void removeAll(List<Path> created) throws InterruptedException {
        for (int i = created.size() - 1; i >= 0; i--) {
            Path dir = created.get(i);
            for (int attempt = 0; attempt < 50 && Files.exists(dir); attempt++) {
                try {
                    Files.delete(dir);
                } catch (IOException e) {
                    if (attempt == 49) {
                        System.err.println("Could not remove test cgroup " + dir + ": " + e);
                    }
                    Thread.sleep(100);
                }
            }
        }
    }

    private static void skip(String reason) {
        System.out.println(String.format(Locale.ROOT, "Skipping %s: %s", RealCgroupQuotaTest.class.getSimpleName(),
                reason));
        assumeTrue(false, reason);
    }
}
