package dev.cpuprofiler.benchmarks.harness;

import dev.cpuprofiler.benchmarks.app.BenchApplication;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** One running instance of the benchmark web app, on loopback. */
final class App implements AutoCloseable {

    final Child child;
    final String base;
    final double startupSeconds;

    private App(Child child, String base, double startupSeconds) {
        this.child = child;
        this.base = base;
        this.startupSeconds = startupSeconds;
    }

    /**
     * @param props {@code name=value} Spring properties (profiler.*, ...), passed as command-line arguments
     */
    static App start(Ctx ctx, String name, boolean jdk25, boolean withAsyncProfiler, List<String> jvmFlags,
            List<String> props) throws IOException, InterruptedException {
        int port = Http.freePort();
        List<String> args = new ArrayList<>(List.of("--server.port=" + port, "--server.address=127.0.0.1",
                "--spring.main.banner-mode=off", "--management.endpoints.web.exposure.include=health,cpuprofiler",
                "--management.endpoint.cpuprofiler.access=unrestricted"));
        for (String p : props) {
            args.add("--" + p);
        }
        List<String> flags = new ArrayList<>(List.of("-Xms512m", "-Xmx512m"));
        flags.addAll(jvmFlags);
        List<String> cmd = ctx.jvms.command(jdk25, withAsyncProfiler, flags, BenchApplication.class.getName(), args);
        long t0 = System.nanoTime();
        Child child = Child.start(name, cmd, ctx.work.resolve(name + ".log"));
        String base = "http://127.0.0.1:" + port;
        if (!Http.awaitUp(base + "/bench/info", child, 120)) {
            String tail = child.tail(25);
            child.close();
            throw new IOException(name + " did not start (log " + child.log + "):\n" + tail);
        }
        return new App(child, base, (System.nanoTime() - t0) / 1e9);
    }

    long pid() {
        return child.pid();
    }

    @Override
    public void close() {
        child.close();
    }
}
