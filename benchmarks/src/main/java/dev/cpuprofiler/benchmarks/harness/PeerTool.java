package dev.cpuprofiler.benchmarks.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The five configurations of the same bench app the peers section compares: the starter off, the starter with every
 * default, and the tools a user would run instead (each with its own defaults, as its documentation shows).
 */
enum PeerTool {
    NONE("none", "the starter on the classpath, `profiler.enabled=false`"),
    OURS("ours", "the starter, every default (engine jfr-execution: the app has no async-profiler jar)"),
    PYROSCOPE("pyroscope", "`-javaagent:pyroscope-agent.jar` (io.pyroscope:agent " + PeerTool.PYROSCOPE_VERSION
            + "), its defaults: event itimer, interval 10 ms, upload every 10 s, format jfr; only "
            + "`-Dpyroscope.server.address` (the harness's sink) and `-Dpyroscope.application.name` set"),
    ASYNC_PROFILER("async-profiler", "`-agentpath:libasyncProfiler.so=start,event=cpu,interval=10ms,file=<work>/"
            + "<app>.jfr` (async-profiler's own agent, continuous, as its README shows)"),
    JFR("jfr", "`-XX:StartFlightRecording=settings=profile,name=peers` (JFR's `profile` settings, continuous)");

    static final String PYROSCOPE_VERSION = "2.1.2";
    static final Path PYROSCOPE_JAR = Path.of("benchmarks", "target", "peers", "pyroscope-agent.jar").toAbsolutePath();

    /** Thread groups by the kernel's 15-character thread name, for the per-thread table. */
    record Threads(String label, String... prefixes) {
        boolean matches(String comm) {
            for (String p : prefixes) {
                if (comm.startsWith(p)) {
                    return true;
                }
            }
            return false;
        }
    }

    static final Threads STARTER = new Threads("`cpuprofiler-*`", "cpuprofiler-");
    static final Threads JFR_THREADS = new Threads("`JFR *`", "JFR ");
    static final Threads ASYNC = new Threads("`Async-profiler *`", "Async-profiler");
    /** The Pyroscope agent's Java threads: its scheduler, its exporter's queue thread, OkHttp's. */
    static final Threads PYRO = new Threads("Pyroscope's (`PyroscopeProfil*`, `Thread-*`, `OkHttp*`, `Okio*`)",
            "PyroscopeProfil", "Thread-", "OkHttp", "Okio");
    static final Threads C1 = new Threads("`C1 CompilerThre*`", "C1 CompilerThre");
    static final Threads C2 = new Threads("`C2 CompilerThre*`", "C2 CompilerThre");
    static final List<Threads> GROUPS = List.of(STARTER, JFR_THREADS, ASYNC, PYRO, C1, C2);

    final String id;
    final String description;

    PeerTool(String id, String description) {
        this.id = id;
        this.description = description;
    }

    /** The tool's own threads (its cost where it can be seen; a signal handler's runs on the app's threads). */
    List<Threads> own() {
        return switch (this) {
            case NONE -> List.of();
            case OURS -> List.of(STARTER, JFR_THREADS);
            case PYROSCOPE -> List.of(PYRO, ASYNC);
            case ASYNC_PROFILER -> List.of(ASYNC);
            case JFR -> List.of(JFR_THREADS);
        };
    }

    /** The async-profiler agent's output file for this app. */
    static Path asyncOutput(Ctx ctx) {
        return ctx.work.resolve("peers-async-profiler.jfr");
    }

    /** JVM flags; null with {@code why} filled when the tool cannot run here. */
    List<String> flags(Ctx ctx, String sinkUrl, StringBuilder why) {
        List<String> flags = new ArrayList<>();
        switch (this) {
            case PYROSCOPE -> {
                if (!Files.isRegularFile(PYROSCOPE_JAR)) {
                    why.append("no ").append(PYROSCOPE_JAR).append(" (the benchmarks module's build copies it)");
                    return null;
                }
                flags.add("-javaagent:" + PYROSCOPE_JAR);
                flags.add("-Dpyroscope.server.address=" + sinkUrl);
                flags.add("-Dpyroscope.application.name=peers-bench");
            }
            case ASYNC_PROFILER -> {
                if (ctx.agentLibrary() == null) {
                    why.append(ctx.agentMissing());
                    return null;
                }
                flags.add("-agentpath:" + ctx.agentLibrary() + "=start,event=cpu,interval=10ms,file=" + asyncOutput(ctx));
            }
            case JFR -> flags.add("-XX:StartFlightRecording=settings=profile,name=peers");
            default -> {
            }
        }
        return flags;
    }

    List<String> props() {
        return this == OURS ? List.of("profiler.enabled=true") : List.of("profiler.enabled=false");
    }
}
