package dev.cpuprofiler.internal.core;

import com.sun.management.OperatingSystemMXBean;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * Not a test: what the reference of normal costs a lightly loaded application, every default but the timing (the
 * start-up grace and the refresh shortened so that a run holds a few references; a reference costs the same whenever
 * it comes). 50 parked threads stand for a web application's pools, one thread burns 1 ms every 20 ms (an idle
 * application gets no reference at all); nothing else runs. A thread of its own reads the
 * process's CPU time ({@code getProcessCpuTime}: every thread, the JIT and GC included) every 100 ms, and with
 * {@code -Dmeasure.groups=true} every 2 s each thread group's ({@code /proc/self/task/N/schedstat}, its own cost apart
 * as {@code measure}, about 5 ms a reading, so off for the totals); the main thread
 * only waits for the references, which a listener collects. Afterwards, by the references' own times:
 * <ol>
 * <li>idle before any reference: from {@code settle} after start-up until 3 s before the first (no JFR, nothing
 * recording);</li>
 * <li>each reference: from 3 s before it started recording (its launch: the engine's start) until 5 s after it ended
 * (its parse and store), less the idle rate of the gap before it. The first also pays what a JVM pays once (the
 * engine's start: async-profiler's library, JFR's first recording; the JIT of the parser);</li>
 * <li>idle between references: JFR's threads stay after a JFR engine's first recording.</li>
 * </ol>
 * One reference an hour costs a minute the later references' cost divided by 60. Per thread group
 * ({@code /proc/self/task/N/schedstat}), the whole run after the settle, for where it went.
 *
 * <pre>
 * mvn -q -pl profiler-core -am test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints \
 *   -cp profiler-core/target/classes:profiler-core/target/test-classes:profiler-test-fixtures/target/classes:$(cat profiler-core/target/cp.txt) \
 *   dev.cpuprofiler.internal.core.ReferenceCostMeasure [engine] [references] [graceSeconds] [refreshSeconds]
 * </pre>
 */
public final class ReferenceCostMeasure {

    private static final int PARKED_THREADS = 50;
    private static final Duration SETTLE = Duration.ofSeconds(40);
    private static final Duration BEFORE = Duration.ofSeconds(3);
    private static final Duration AFTER = Duration.ofSeconds(5);
    /** Whether to read each thread group's CPU every 2 s: where it goes, at about 5 ms of CPU a reading. */
    private static final boolean GROUPS = Boolean.getBoolean("measure.groups");

    /** Process CPU nanoseconds at wall-clock milliseconds, and by thread group (every 20th reading, else null). */
    private record Point(long atMillis, long cpuNanos, Map<String, Long> groups) {
    }

    public static void main(String[] args) throws Exception {
        EngineChoice engine = EngineChoice.fromId(args.length > 0 ? args[0] : "auto");
        int references = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Duration grace = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 120);
        Duration refresh = Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 120);
        CountDownLatch never = new CountDownLatch(1);
        for (int i = 0; i < PARKED_THREADS; i++) {
            Thread t = new Thread(() -> {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "pool-" + i);
            t.setDaemon(true);
            t.start();
        }
        // An idle JVM gets no reference (under TriggerDecision.MIN_REFERENCE_SAMPLES expected samples): a steady light
        // load, 1 ms of CPU every 20 ms (2.5% of 2 CPUs), makes it busy enough. It is in the rate before each
        // reference too, and is subtracted with it.
        Thread light = new Thread(() -> {
            while (true) {
                long end = System.nanoTime() + 1_000_000;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
                java.util.concurrent.locks.LockSupport.parkNanos(19_000_000);
            }
        }, "light-load");
        light.setDaemon(true);
        light.start();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        List<Point> timeline = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            for (int i = 0; !Thread.currentThread().isInterrupted(); i++) {
                Map<String, Long> groups = null;
                if (GROUPS && i % 20 == 0) {
                    try {
                        groups = groups();
                    } catch (IOException e) {
                        groups = null;
                    }
                }
                timeline.add(new Point(System.currentTimeMillis(), os.getProcessCpuTime(), groups));
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "measure-reader");
        reader.setDaemon(true);
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setEngine(engine);
        options.setStartupGrace(grace);
        options.getReference().setRefresh(refresh);
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(options).build()) {
            // The store keeps only the newest reference (nothing is compared with the older ones): listen instead.
            List<Profile> refs = new java.util.concurrent.CopyOnWriteArrayList<>();
            profiler.addStoredProfileListener(p -> {
                if (p.trigger() == SessionTrigger.REFERENCE) {
                    refs.add(p);
                }
            });
            profiler.start();
            reader.start();
            Thread.sleep(SETTLE.toMillis());
            long settled = System.currentTimeMillis();
            Map<String, Long> groupsFrom = groups();
            while (refs.size() < references) {
                Thread.sleep(500);
            }
            Thread.sleep(AFTER.plusSeconds(1).toMillis());
            long ended = System.currentTimeMillis();
            Map<String, Long> byGroup = minus(groups(), groupsFrom);
            reader.interrupt();
            long gapFrom = settled;
            List<String> costs = new ArrayList<>();
            List<String> idles = new ArrayList<>();
            for (Profile r : refs) {
                long from = r.recording().startedAt().toEpochMilli() - BEFORE.toMillis();
                long to = r.recording().endedAt().toEpochMilli() + AFTER.toMillis();
                double idlePerMilli = cpuBetween(timeline, gapFrom, from) / (double) (from - gapFrom);
                double cost = (cpuBetween(timeline, from, to) - idlePerMilli * (to - from)) / 1e6;
                idles.add(String.format("%.2f", idlePerMilli * 60_000 / 1e6));
                costs.add(String.format("%.1f", cost));
                System.out.printf("reference %s (%s, %d samples in %s): %.1f ms CPU above the idle before it "
                        + "(%.2f ms a minute over %d s); by thread over %d s around it %s ms, in the %d s before %s "
                        + "ms%n", r.id(), r.recording().engine().id(), r.recording().samples(),
                        r.recording().duration(), cost,
                        idlePerMilli * 60_000 / 1e6, (from - gapFrom) / 1000, (to - from) / 1000,
                        perSpan(groupsBetween(timeline, from, to)), (from - gapFrom) / 1000,
                        perSpan(groupsBetween(timeline, gapFrom, from)));
                gapFrom = to;
            }
            long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
            for (Profile r : refs) {
                System.out.printf("uptime of reference %s: %d..%d ms%n", r.id(),
                        r.recording().startedAt().toEpochMilli() - jvmStart - BEFORE.toMillis(),
                        r.recording().endedAt().toEpochMilli() - jvmStart + AFTER.toMillis());
            }
            System.out.printf("SUMMARY engine %s, java %s: idle before each reference %s ms a minute; each reference "
                    + "%s ms CPU; by thread over the %d s after the settle: %s ms%n", engine.id(),
                    System.getProperty("java.version"), idles, costs, (ended - settled) / 1000, perSpan(byGroup));
        }
    }

    /** Process CPU nanoseconds between two wall-clock times, from the nearest readings. */
    private static long cpuBetween(List<Point> timeline, long fromMillis, long toMillis) {
        return at(timeline, toMillis) - at(timeline, fromMillis);
    }

    /** CPU by thread group between the snapshots nearest to two wall-clock times (2 s apart at most). */
    private static Map<String, Long> groupsBetween(List<Point> timeline, long fromMillis, long toMillis) {
        Point from = null;
        Point to = null;
        for (Point p : timeline) {
            if (p.groups() == null) {
                continue;
            }
            if (p.atMillis() <= fromMillis) {
                from = p;
            }
            if (to == null && p.atMillis() >= toMillis) {
                to = p;
            }
        }
        return from == null || to == null ? Map.of() : minus(to.groups(), from.groups());
    }

    private static long at(List<Point> timeline, long millis) {
        Point best = timeline.get(0);
        for (Point p : timeline) {
            if (Math.abs(p.atMillis() - millis) < Math.abs(best.atMillis() - millis)) {
                best = p;
            }
        }
        return best.cpuNanos();
    }

    /** CPU nanoseconds by thread group, from schedstat: the profiler's, JFR's, async-profiler's, the JIT, GC, rest. */
    private static Map<String, Long> groups() throws IOException {
        Map<String, Long> groups = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String name = Files.readString(task.resolve("comm")).trim();
                    long nanos = Long.parseLong(Files.readString(task.resolve("schedstat")).trim().split(" ")[0]);
                    groups.merge(group(name), nanos, Long::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        }
        return groups;
    }

    private static String group(String name) {
        if (name.startsWith("measure")) {
            return "measure";
        }
        if (name.startsWith("cpuprofiler")) {
            return "cpuprofiler";
        }
        if (name.startsWith("JFR") || name.startsWith("Jfr")) {
            return "jfr";
        }
        if (name.startsWith("Async-profiler") || name.startsWith("async-profiler")) {
            return "async-profiler";
        }
        if (name.startsWith("C1 ") || name.startsWith("C2 ")) {
            return "jit";
        }
        if (name.startsWith("GC") || name.startsWith("G1") || name.contains("GC")) {
            return "gc";
        }
        return "other";
    }

    private static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> d = new TreeMap<>();
        after.forEach((k, v) -> d.put(k, v - before.getOrDefault(k, 0L)));
        return d;
    }

    private static Map<String, String> perSpan(Map<String, Long> nanos) {
        Map<String, String> m = new TreeMap<>();
        nanos.forEach((k, v) -> m.put(k, String.format("%.1f", v / 1e6)));
        return m;
    }
}
