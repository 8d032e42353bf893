package dev.cpuprofiler.internal.threads;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A fake {@code /proc/self/task} under a test's root, in the kernel's formats: {@code comm} is the name cut to 15
 * bytes plus a newline; {@code schedstat} is "on-cpu-ns waiting-ns timeslices" (Documentation/scheduler/
 * sched-stats.rst); {@code stat} is the 52-field line of proc(5) with comm in parentheses.
 */
final class FakeProcTasks {

    final Path root;

    FakeProcTasks(Path root) {
        this.root = root;
        try {
            Files.createDirectories(taskDir());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A task with all three files; {@code comm} is cut to 15 bytes as the kernel does. */
    FakeProcTasks task(long tid, String name, long onCpuNanos) {
        return task(tid, name, onCpuNanos, onCpuNanos / 10_000_000 * 3 / 4, onCpuNanos / 10_000_000 / 4);
    }

    FakeProcTasks task(long tid, String name, long onCpuNanos, long utimeTicks, long stimeTicks) {
        String comm = name.length() > 15 ? name.substring(0, 15) : name;
        write(tid, "comm", comm + "\n");
        write(tid, "schedstat", onCpuNanos + " " + (onCpuNanos / 7) + " " + (onCpuNanos / 1_000_000 + 1) + "\n");
        return write(tid, "stat", statLine(tid, comm, utimeTicks, stimeTicks));
    }

    /** A task of a kernel without schedstat: comm and stat only. */
    FakeProcTasks taskWithoutSchedstat(long tid, String name, long utimeTicks, long stimeTicks) {
        task(tid, name, 0, utimeTicks, stimeTicks);
        try {
            Files.delete(taskDir().resolve(tid + "/schedstat"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    FakeProcTasks write(long tid, String file, String content) {
        Path path = taskDir().resolve(tid + "/" + file);
        try {
            Files.createDirectories(path.getParent());
            Files.writeString(path, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** The thread ended: its directory is gone. */
    FakeProcTasks end(long tid) {
        try (var files = Files.list(taskDir().resolve(Long.toString(tid)))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.delete(f);
            }
            Files.delete(taskDir().resolve(Long.toString(tid)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    Path taskDir() {
        return root.resolve("proc/self/task");
    }

    /** proc(5)'s stat: pid (comm) state ppid ... utime(14) stime(15) ... through field 52. */
    static String statLine(long tid, String comm, long utime, long stime) {
        StringBuilder s = new StringBuilder().append(tid).append(" (").append(comm).append(") S 1 4242 4242 0 -1 ")
                .append("1077936192 1520 0 3 0 ") // flags minflt cminflt majflt cmajflt (fields 9-13)
                .append(utime).append(' ').append(stime)
                .append(" 0 0 20 0 31 0 1234567 5368709120 45678 18446744073709551615 1 1 0 0 0 0 4 0 16898")
                .append(" 0 0 0 -1 1 0 0 0 0 0 0 0 0 0 0 0 0 0");
        return s.append('\n').toString();
    }
}
