package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuBreakdown;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Every thread of this process (Java or not: GC, JIT, ...) with its CPU time, from {@code /proc/self/task}.
 *
 * <p>Per task: {@code comm} for the name, and {@code schedstat}'s first field, the time spent on a CPU in
 * nanoseconds (Documentation/scheduler/sched-stats.rst: "time spent on the cpu (in nanoseconds)", the same
 * {@code sum_exec_runtime} the process's CPU clock adds up). Where {@code schedstat} is missing (a kernel without
 * CONFIG_SCHED_INFO) or reads 0, {@code stat}'s utime + stime (fields 14 and 15, in clock ticks: USER_HZ, 100 on
 * every mainstream architecture) is used instead, at tick precision.
 *
 * <p>Threads come and go while the directory is listed: a task whose files are gone is skipped; one whose file
 * cannot be parsed is skipped and counted.
 */
final class ProcTaskCpuReader implements TaskCpuSource {

    /** USER_HZ, fixed by the kernel's ABI at 100 on x86, arm64, ... (sysconf(_SC_CLK_TCK) is not reachable from Java). */
    static final long DEFAULT_TICKS_PER_SECOND = 100;

    private final Path taskDir;
    private final long nanosPerTick;

    /** @param fsRoot {@code /} in production; tests point it at a fake tree */
    ProcTaskCpuReader(Path fsRoot) {
        this(fsRoot, DEFAULT_TICKS_PER_SECOND);
    }

    ProcTaskCpuReader(Path fsRoot, long ticksPerSecond) {
        this.taskDir = Objects.requireNonNull(fsRoot, "fsRoot").resolve("proc/self/task");
        if (ticksPerSecond <= 0) {
            throw new IllegalArgumentException("ticksPerSecond must be positive: " + ticksPerSecond);
        }
        this.nanosPerTick = 1_000_000_000L / ticksPerSecond;
    }

    @Override
    public String id() {
        return CpuBreakdown.SOURCE_PROC;
    }

    @Override
    public TaskCpuSource.Snapshot snapshot() throws IOException {
        Map<Long, TaskCpuSource.Snapshot.TaskCpu> tasks = new HashMap<>();
        int malformed = 0;
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(taskDir)) {
            for (Path task : dir) {
                long tid;
                try {
                    tid = Long.parseLong(task.getFileName().toString());
                } catch (NumberFormatException e) {
                    continue; // not a task
                }
                try {
                    tasks.put(tid, new TaskCpuSource.Snapshot.TaskCpu(comm(task), cpuNanos(task)));
                } catch (IOException e) {
                    // Gone since the listing (NoSuchFile, or ESRCH on read): it is simply not in this snapshot.
                } catch (RuntimeException e) {
                    malformed++;
                }
            }
        }
        return new TaskCpuSource.Snapshot(tasks, malformed);
    }

    private static String comm(Path task) throws IOException {
        // HotSpot cuts a Java name at 15 bytes, maybe inside a UTF-8 sequence: decode leniently.
        String comm = new String(Files.readAllBytes(task.resolve("comm")), StandardCharsets.UTF_8);
        return comm.endsWith("\n") ? comm.substring(0, comm.length() - 1) : comm;
    }

    private long cpuNanos(Path task) throws IOException {
        Path schedstat = task.resolve("schedstat");
        if (Files.exists(schedstat)) {
            long onCpu = parseSchedstat(Files.readString(schedstat, StandardCharsets.US_ASCII));
            if (onCpu > 0) {
                return onCpu;
            }
        }
        return parseStatTicks(new String(Files.readAllBytes(task.resolve("stat")), StandardCharsets.UTF_8))
                * nanosPerTick;
    }

    /** {@code "<on-cpu ns> <waiting ns> <timeslices>\n"}: the first field. */
    static long parseSchedstat(String content) {
        String s = content.strip();
        int space = s.indexOf(' ');
        long nanos = Long.parseLong(space < 0 ? s : s.substring(0, space));
        if (nanos < 0) {
            throw new NumberFormatException("negative schedstat: " + s);
        }
        return nanos;
    }

    /**
     * utime + stime from a {@code stat} line. comm (field 2) is in parentheses and may itself hold spaces and
     * parentheses, so fields are counted from the last ')': field 3 is the first after it, utime is 14, stime 15.
     */
    static long parseStatTicks(String line) {
        int close = line.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("no comm in stat: " + line);
        }
        String[] fields = line.substring(close + 1).strip().split(" ");
        if (fields.length < 13) {
            throw new IllegalArgumentException("short stat: " + line);
        }
        long ticks = Long.parseLong(fields[14 - 3]) + Long.parseLong(fields[15 - 3]);
        if (ticks < 0) {
            throw new IllegalArgumentException("negative CPU ticks in stat: " + line);
        }
        return ticks;
    }
}
