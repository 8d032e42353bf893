package dev.cpuprofiler.realistic;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * Waits until a loaded child JVM's JIT compilers have calmed down: at least the minimum warm-up, then until its
 * compiler threads used less than {@link #QUIET_SHARE} of one core over the last {@link #SPAN}, at most
 * {@code maxWarmUp}. Two twin JVMs profiled while the JIT still recompiles the hot code disagree on its share by
 * up to 12 points (the inlining, hence the self time, differs from one moment to the next). Measured on JDK 25
 * with 4 clients on 2 CPUs: the compilers use 45% of a core at 25 s, about 20% from 45 s, under 10% only after
 * 85-95 s, when the twins agree within 0.5 points; at 60 s they differed by 4, at 20 s by 12. A quarter of a core is
 * the compromise between CI time and agreement; a fixed warm-up long enough on a slow machine would waste time on a
 * fast one.
 */
final class JitWarmUp {

    static final double QUIET_SHARE = 0.25;
    static final Duration SPAN = Duration.ofSeconds(5);

    private JitWarmUp() {
    }

    /**
     * Sleeps through the warm-up and returns how long it took. Where {@code /proc/<pid>/task} cannot be read, it is
     * the minimum.
     */
    static Duration await(long pid, Duration minimum, Duration maxWarmUp) throws InterruptedException {
        long start = System.nanoTime();
        Thread.sleep(minimum.toMillis());
        long before = jitCpuNanos(pid);
        if (before < 0) {
            return minimum;
        }
        long deadline = start + maxWarmUp.toNanos();
        while (System.nanoTime() < deadline) {
            Thread.sleep(SPAN.toMillis());
            long now = jitCpuNanos(pid);
            if (now < 0 || (now - before) < QUIET_SHARE * SPAN.toNanos()) {
                break;
            }
            before = now;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        System.out.printf("warm-up of pid %d: %.0f s (JIT below %.0f%% of a core over %d s, or the %d s cap)%n", pid,
                took.toMillis() / 1000.0, QUIET_SHARE * 100, SPAN.toSeconds(), maxWarmUp.toSeconds());
        return took;
    }

    /** CPU time of the JVM's compiler threads ({@code C1/C2 CompilerThre...}) so far, in ns; -1 if unreadable. */
    static long jitCpuNanos(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (Stream<Path> list = Files.list(tasks)) {
            return list.mapToLong(JitWarmUp::compilerCpu).sum();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static long compilerCpu(Path task) {
        try {
            String comm = Files.readString(task.resolve("comm")).strip();
            if (!comm.startsWith("C1 Compiler") && !comm.startsWith("C2 Compiler")) {
                return 0;
            }
            // schedstat: time on CPU (ns), time waiting to run (ns), timeslices.
            return Long.parseLong(Files.readString(task.resolve("schedstat")).strip().split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return 0; // the thread ended between the listing and the read
        }
    }
}
