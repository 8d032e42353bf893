package dev.cpuprofiler.internal.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import dev.cpuprofiler.internal.testing.LogCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On a real kernel, the cgroup whose counter a running sampler reads is removed and created again (a container
 * runtime recreating it): the kernel answers ENODEV through the open file, then the file does not exist, then a
 * new counter starts from zero. The sampler logs the outage once, keeps ticking on its own thread, and measures
 * again once the counter is back, with the reset counted as nothing. Needs root and a writable cgroup hierarchy;
 * skips with the reason elsewhere.
 */
class RealCgroupVanishTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"v1", "v2"})
    void aRemovedCgroupIsLoggedOnceAndMeasuredAgainWhenItComesBack(String version) throws Exception {
        Path dir = createCgroup(version);
        try (LogCapture logs = new LogCapture()) {
            burnInside(dir);
            CpuUsageSource source = version.equals("v1") ? CgroupCpuSource.v1(dir) : CgroupCpuSource.v2(dir);
            assertThat(source.cpuTimeNanos()).as("CPU the cgroup used before it vanishes").isPositive();
            AtomicReference<Thread> thread = new AtomicReference<>();
            CpuSampler sampler = new CpuSampler(source, new EffectiveCpuCount(2, "test"), Duration.ofMillis(20),
                    Ticker.system(), r -> {
                        Thread t = new Thread(r, "cpuprofiler-sampler");
                        t.setDaemon(true);
                        thread.set(t);
                        return t;
                    });
            List<Long> cumulative = new CopyOnWriteArrayList<>();
            List<Double> percents = new CopyOnWriteArrayList<>();
            sampler.addListener((t, cpu, p) -> {
                cumulative.add(cpu);
                if (!Double.isNaN(p)) {
                    percents.add(p);
                }
            });
            sampler.start();
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> sampler.samples() >= 3);

                removeCgroup(dir);
                await().atMost(Duration.ofSeconds(10)).until(() -> sampler.failedReads() >= 5);
                assertThat(thread.get().isAlive()).isTrue();

                Files.createDirectory(dir);
                long samplesAtReturn = sampler.samples();
                await().atMost(Duration.ofSeconds(10)).until(() -> sampler.samples() >= samplesAtReturn + 5);
            } finally {
                sampler.close();
            }

            assertThat(logs.messages(Level.WARN)).as("the outage is logged once")
                    .filteredOn(m -> m.startsWith("Cannot read CPU counter")).singleElement().asString()
                    .contains(dir.toString());
            assertThat(logs.messages(Level.INFO)).anyMatch(m -> m.contains("readable again after"));
            // The new counter restarted from zero: no negative or absurd figure, and a cumulative that never goes
            // backwards for the baseline.
            assertThat(percents).isNotEmpty().allSatisfy(p -> assertThat(p).isBetween(0.0, 100.0));
            assertThat(cumulative).isSorted();
            await().atMost(Duration.ofSeconds(5)).until(() -> !thread.get().isAlive());
        } finally {
            removeCgroup(dir);
        }
    }

    /** A new, empty cgroup next to where this JVM sits in the hierarchy that counts CPU. */
    private static Path createCgroup(String version) throws Exception {
        CgroupDiscovery.Layout layout;
        try {
            layout = new CgroupDiscovery(Path.of("/")).discover();
        } catch (IOException e) {
            skip("no cgroup information on this machine: " + e.getMessage());
            return null;
        }
        CgroupDirectory parent = version.equals("v1") ? layout.v1Cpuacct() : layout.v2();
        if (parent == null) {
            skip("no cgroup " + version + " CPU accounting hierarchy is mounted here");
        }
        Path dir = Path.of(parent.path(), "cpuprofiler-vanish-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE));
        try {
            Files.createDirectory(dir);
        } catch (IOException e) {
            skip("cannot create a cgroup (needs root and a writable cgroup hierarchy): " + dir + ": " + e);
        }
        return dir;
    }

    /** A shell joins the cgroup and burns a little CPU there, so that its counter is well above zero. */
    private static void burnInside(Path dir) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "echo $$ > '" + dir.resolve("cgroup.procs")
                + "' && i=0 && while [ $i -lt 50000 ]; do i=$((i+1)); done").inheritIO().start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        if (p.exitValue() != 0) {
            skip("cannot move a process into " + dir + " (exit " + p.exitValue() + ")");
        }
    }

    /** Removes the cgroup; one just emptied can be busy for a moment. */
    private static void removeCgroup(Path dir) throws InterruptedException {
        for (int attempt = 0; attempt < 50 && dir != null && Files.exists(dir); attempt++) {
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

    private static void skip(String reason) {
        System.out.println("Skipping " + RealCgroupVanishTest.class.getSimpleName() + ": " + reason);
        assumeTrue(false, reason);
    }
}
