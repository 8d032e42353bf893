package dev.cpuprofiler.realistic;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shop in a child JVM, started as a user starts it: {@code java -cp <classpath> RealisticApplication} with no
 * JVM flag at all, on a free loopback port, its output in a log file. Closing it stops the process (destroy, wait,
 * then destroy forcibly); a shutdown hook does the same if the parent dies first.
 */
final class ChildApp implements AutoCloseable {

    static final String MAIN_CLASS = "dev.cpuprofiler.realistic.RealisticApplication";
    private static final Pattern STARTED = Pattern.compile("Started RealisticApplication in ([0-9.]+) seconds");

    final String name;
    final int port;
    final Path log;
    private final Process process;
    private final Thread reaper;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private ChildApp(String name, int port, Path log, Process process) {
        this.name = name;
        this.port = port;
        this.log = log;
        this.process = process;
        this.reaper = new Thread(process::destroyForcibly, "reap-" + name);
        Runtime.getRuntime().addShutdownHook(reaper);
    }

    /**
     * @param javaHome the JDK to run ({@code java.home} of the caller for "the same JDK")
     * @param classpath the child's classpath
     * @param appArgs Spring Boot arguments ({@code --profiler.enabled=false} ...); the port is added
     */
    static ChildApp start(String name, String javaHome, String classpath, Path workDirectory, List<String> appArgs)
            throws IOException {
        return start(name, javaHome, classpath, workDirectory, List.of(), appArgs, Map.of());
    }

    /**
     * @param jvmArgs JVM options before the main class ({@code -Dkey=value}, {@code -XX:...})
     * @param environment variables added to the child's environment
     */
    static ChildApp start(String name, String javaHome, String classpath, Path workDirectory, List<String> jvmArgs,
            List<String> appArgs, Map<String, String> environment) throws IOException {
        Files.createDirectories(workDirectory);
        int port = freePort();
        Path log = workDirectory.resolve(name + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(javaHome, "bin", "java").toString());
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(classpath);
        command.add(MAIN_CLASS);
        command.add("--server.port=" + port);
        command.add("--server.address=127.0.0.1");
        command.addAll(appArgs);
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDirectory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        return new ChildApp(name, port, log, process);
    }

    long pid() {
        return process.pid();
    }

    /**
     * Sends SIGTERM ({@link Process#destroy()} on Linux), as Kubernetes does to a pod it restarts, and waits for the
     * process to exit on its own.
     *
     * @return whether it exited within the timeout (it is not killed here if not: {@link #close()} does that)
     */
    boolean terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The exit status; only once the process has exited. */
    int exitValue() {
        return process.exitValue();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** Polls /actuator/health until UP; fails with the log's tail if the child dies or the time runs out. */
    void awaitReady(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + logTail(40));
            }
            try {
                HttpResponse<String> health = get("/actuator/health");
                if (health.statusCode() == 200 && health.body().contains("\"UP\"")) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(name + " not ready within " + timeout + ":\n" + logTail(40));
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> postJson(String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The "Started RealisticApplication in X seconds" figure from the log, or NaN. */
    double startedInSeconds() throws IOException {
        Matcher m = STARTED.matcher(Files.readString(log, StandardCharsets.UTF_8));
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
