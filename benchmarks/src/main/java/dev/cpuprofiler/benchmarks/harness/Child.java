package dev.cpuprofiler.benchmarks.harness;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** A process the harness started: output to a log file, stopped by its own id, never left behind. */
final class Child implements AutoCloseable {

    private static final Set<Child> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Child::kill), "harness-children-cleanup"));
    }

    final String name;
    final Path log;
    private final Process process;

    private Child(String name, Path log, Process process) {
        this.name = name;
        this.log = log;
        this.process = process;
        LIVE.add(this);
    }

    static Child start(String name, List<String> command, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        Files.writeString(log, "# " + String.join(" ", command) + System.lineSeparator());
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        return new Child(name, log, pb.start());
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Waits for the process to end by itself; kills it after the timeout. Returns its exit code, or -1. */
    int await(double seconds) throws InterruptedException {
        if (process.waitFor((long) (seconds * 1000), TimeUnit.MILLISECONDS)) {
            LIVE.remove(this);
            return process.exitValue();
        }
        close();
        return -1;
    }

    /** SIGTERM, up to 15 s for a graceful end, then SIGKILL. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        LIVE.remove(this);
    }

    private void kill() {
        process.destroyForcibly();
    }

    /** Lines of the log that start with {@code prefix}, the prefix removed. */
    List<String> linesStartingWith(String prefix) {
        List<String> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(log)) {
                if (line.startsWith(prefix)) {
                    out.add(line.substring(prefix.length()));
                }
            }
        } catch (IOException e) {
            // no log
        }
        return out;
    }

    /** The last lines of the log, for error messages. */
    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }
}
