package dev.cpuprofiler.benchmarks.harness;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The kernel's own accounting, read from /proc. */
final class Proc {

    /** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s. */
    static final long TICK_NANOS = 10_000_000L;

    private Proc() {
    }

    /** utime + stime of a process (all its threads, live and exited), in ns; -1 if it is gone. */
    static long cpuNanos(long pid) {
        long[] f = statFields(Path.of("/proc", Long.toString(pid), "stat"));
        return f == null ? -1 : (f[11] + f[12]) * TICK_NANOS;
    }

    /** cutime + cstime of a process: the CPU time of its children it has waited for, in ns. */
    static long childrenCpuNanos(String statLine) {
        long[] f = parseStat(statLine);
        return f == null ? -1 : (f[13] + f[14]) * TICK_NANOS;
    }

    /** Fields after the command name: index 0 is the state (field 3 of proc(5)), 11/12 utime/stime. */
    private static long[] statFields(Path stat) {
        try {
            return parseStat(Files.readString(stat));
        } catch (IOException e) {
            return null;
        }
    }

    private static long[] parseStat(String line) {
        int close = line.lastIndexOf(')');
        if (close < 0) {
            return null;
        }
        String[] parts = line.substring(close + 2).trim().split(" ");
        long[] out = new long[parts.length];
        for (int i = 1; i < parts.length; i++) {
            try {
                out[i] = Long.parseLong(parts[i]);
            } catch (NumberFormatException e) {
                out[i] = 0;
            }
        }
        return out;
    }

    /**
     * The CPU time (ns, from each thread's {@code schedstat}, nanosecond resolution) of the live threads of
     * {@code pid} whose name starts with {@code prefix}, and how many there are.
     */
    static long[] threadsCpuNanos(long pid, String prefix) {
        long sum = 0;
        long count = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String comm = Files.readString(task.resolve("comm")).trim();
                    if (comm.startsWith(prefix)) {
                        sum += Long.parseLong(Files.readString(task.resolve("schedstat")).trim().split(" ")[0]);
                        count++;
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return new long[] {-1, 0};
        }
        return new long[] {sum, count};
    }

    /** One live thread: its kernel name, CPU time (ns, schedstat) and voluntary context switches (its wake-ups). */
    record TaskCpu(String name, long cpuNanos, long wakeUps) {
    }

    /** The live threads of {@code pid} whose name starts with one of {@code prefixes}, by thread id. */
    static java.util.Map<Long, TaskCpu> tasksCpu(long pid, String... prefixes) {
        java.util.Map<Long, TaskCpu> tasks = new java.util.TreeMap<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : dir) {
                try {
                    String comm = Files.readString(task.resolve("comm")).trim();
                    if (java.util.Arrays.stream(prefixes).noneMatch(comm::startsWith)) {
                        continue;
                    }
                    long cpu = Long.parseLong(Files.readString(task.resolve("schedstat")).trim().split(" ")[0]);
                    long wakeUps = Files.readAllLines(task.resolve("status")).stream()
                            .filter(l -> l.startsWith("voluntary_ctxt_switches:"))
                            .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim())).findFirst()
                            .orElse(0);
                    tasks.put(Long.parseLong(task.getFileName().toString()), new TaskCpu(comm, cpu, wakeUps));
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return java.util.Map.of();
        }
        return tasks;
    }

    /** Thread groups for the idle breakdown, by the kernel's (15-character) thread name. */
    static String threadGroup(String comm) {
        if (comm.startsWith("cpuprofiler-")) {
            return "profiler";
        }
        if (comm.startsWith("JFR ")) { // JFR's own: Thread Sampler, Recorder Thread, Periodic Tasks, ...
            return "JFR";
        }
        if (comm.contains("CompilerThre") || comm.startsWith("C1 ") || comm.startsWith("C2 ")) {
            return "JIT";
        }
        if (comm.startsWith("GC ") || comm.startsWith("G1 ") || comm.contains("GC")) {
            return "GC";
        }
        if (comm.startsWith("VM ") || comm.equals("java") || comm.startsWith("Signal") || comm.startsWith("Service")
                || comm.startsWith("Sweeper") || comm.startsWith("Common-Cleaner") || comm.startsWith("Reference")
                || comm.startsWith("Finalizer") || comm.startsWith("Notification") || comm.startsWith("Monitor")) {
            return "VM";
        }
        return "other";
    }

    /** CPU ns (schedstat) of the live threads of {@code pid}, summed by {@link #threadGroup}. */
    static java.util.Map<String, Long> cpuByThreadGroup(long pid) {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String comm = Files.readString(task.resolve("comm")).trim();
                    long ns = Long.parseLong(Files.readString(task.resolve("schedstat")).trim().split(" ")[0]);
                    out.merge(threadGroup(comm), ns, Long::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            // process gone
        }
        return out;
    }

    /** The resident set of a process ({@code VmRSS} in {@code /proc/<pid>/status}), in bytes; -1 if unknown. */
    static long rssBytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024; // "VmRSS:   123456 kB"
                }
            }
        } catch (IOException | RuntimeException e) {
            // process gone
        }
        return -1;
    }

    /** Busy and total jiffies of the whole machine from /proc/stat ({@code cpu} line). */
    static long[] machineJiffies() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
                if (line.startsWith("cpu ")) {
                    String[] f = line.trim().split("\\s+");
                    long total = 0;
                    for (int i = 1; i < f.length && i <= 8; i++) {
                        total += Long.parseLong(f[i]);
                    }
                    long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
                    return new long[] {total - idle, total};
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return new long[] {0, 0};
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + ", " + f[1] + ", " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    static double loadAverage1() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * How much of the machine other processes used while we measured: (machine busy − our processes' CPU) ÷
     * machine capacity, in percent of all CPUs. Take {@link #machineJiffies()} before and after.
     */
    static double externalPercent(long[] before, long[] after, long ourCpuNanos, long wallNanos, int cpus) {
        double busyNanos = (after[0] - before[0]) * (double) TICK_NANOS;
        double external = Math.max(0, busyNanos - ourCpuNanos);
        return 100.0 * external / ((double) wallNanos * cpus);
    }

    static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
