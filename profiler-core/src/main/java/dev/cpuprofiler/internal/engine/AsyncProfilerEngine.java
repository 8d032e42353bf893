package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.internal.stack.StackSink;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * async-profiler with {@code event=cpu} when {@code tools.profiler:async-profiler} is on the classpath: CPU-time
 * sampling of every thread through perf_events, or ctimer where perf_events is not allowed (async-profiler picks;
 * the result reports which). It records to a {@code .jfr} file, parsed like the JFR engines' files; that file also
 * carries the {@code engine} setting, the only place async-profiler tells which mechanism it used.
 */
public final class AsyncProfilerEngine implements ProfilingEngine {

    public static final String ID = "async-profiler";

    static final String PROFILER_CLASS = "one.profiler.AsyncProfiler";

    private static final Logger log = LoggerFactory.getLogger(AsyncProfilerEngine.class);

    private final String event;
    private final Loader loader;
    private final DebugNonSafepointsCheck debugNonSafepoints;
    // The library loads once per JVM; a failure to load is just as final, so both outcomes are kept.
    private Access profiler;
    private String loadFailure;

    /** Uses the native library inside the async-profiler jar. */
    public AsyncProfilerEngine() {
        this((Path) null);
    }

    /**
     * @param libraryPath a {@code libasyncProfiler.so} to load instead of the jar's copy (e.g. where the temp
     *     directory is mounted noexec); {@code null} for the jar's copy
     */
    public AsyncProfilerEngine(Path libraryPath) {
        this(libraryPath, new DebugNonSafepointsCheck());
    }

    /**
     * @param libraryPath as above, or null
     * @param debugNonSafepoints told when loading the library turned {@code DebugNonSafepoints} on
     */
    public AsyncProfilerEngine(Path libraryPath, DebugNonSafepointsCheck debugNonSafepoints) {
        // A lambda, so AsyncProfilerBridge (and with it one.profiler) is resolved only when load() first runs.
        this("cpu", () -> AsyncProfilerBridge.load(libraryPath), debugNonSafepoints);
    }

    /** For tests: another event ({@code ctimer}, {@code itimer}) or a fake library. */
    AsyncProfilerEngine(String event, Loader loader) {
        this(event, loader, new DebugNonSafepointsCheck());
    }

    AsyncProfilerEngine(String event, Loader loader, DebugNonSafepointsCheck debugNonSafepoints) {
        this.event = event;
        this.loader = loader;
        this.debugNonSafepoints = debugNonSafepoints;
    }

    /**
     * No: async-profiler samples OS threads, so a virtual thread's samples carry its carrier (a {@code ForkJoinPool}
     * worker). Seen on JDK 25 with Spring MVC on virtual threads: none of a request kernel's samples fell inside a
     * request, where both JFR engines put all of them there.
     */
    @Override
    public boolean seesVirtualThreads() {
        return false;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public EngineRecording start(EngineSettings settings, StackSink sink) throws EngineUnavailableException {
        if (!loaded()) {
            // Its loader unpacks the library into java.io.tmpdir, and leaves an empty file behind when that fails.
            Optional<String> full = settings.diskSpace().refusal(Path.of(System.getProperty("java.io.tmpdir")),
                    "java.io.tmpdir, where async-profiler's native library is unpacked");
            if (full.isPresent()) {
                throw new EngineUnavailableException(ID, full.get());
            }
        }
        Access access = loadProfiler();
        Path file = RecordingFiles.create(ID, settings);
        if (file.toString().contains(",")) {
            RecordingFiles.deleteQuietly(file);
            throw new EngineUnavailableException(ID, "the work directory " + settings.workDirectory()
                    + " contains a comma, which async-profiler's command syntax cannot carry");
        }
        // One frame more than kept: async-profiler does not flag stacks it cut, so a longer stack tells us.
        String command = "start,event=" + event + ",interval=" + settings.samplingPeriod().toNanos()
                + ",jstackdepth=" + (settings.maxStackDepth() + 1) + ",jfr" + JfrSystemInfo.asyncProfilerOption(settings)
                + ",file=" + file;
        try {
            String output = access.execute(command);
            log.debug("async-profiler: {} -> {}", command, output.strip());
            return new AsyncProfilerRecording(access, file, settings, sink, output);
        } catch (Exception e) {
            // Typically "Profiler already started" by someone else in this JVM, or an event this OS lacks.
            RecordingFiles.deleteQuietly(file);
            throw new EngineUnavailableException(ID, "async-profiler refused to start: " + e.getMessage(), e);
        }
    }

    /**
     * Yes, unless its library is missing or failed to load: it loads at the first recording with it, not before, since
     * it holds about 15 MB from then on (its symbol tables) and an application that is never profiled should not pay
     * that.
     */
    @Override
    public synchronized boolean turnsOnDebugNonSafepoints() {
        return loadFailure == null && onClasspath();
    }

    private synchronized boolean loaded() {
        return profiler != null;
    }

    private synchronized Access loadProfiler() throws EngineUnavailableException {
        if (profiler != null) {
            return profiler;
        }
        if (loadFailure == null) {
            if (!onClasspath()) {
                loadFailure = "tools.profiler:async-profiler is not on the classpath (add it as a dependency to use "
                        + "this engine)";
            } else {
                try {
                    profiler = loader.load();
                    // async-profiler turns the flag on as it loads, for its own stack walks; every engine gains.
                    debugNonSafepoints.turnedOnBy("async-profiler's library");
                    return profiler;
                } catch (VirtualMachineError e) {
                    throw e;
                } catch (Throwable e) { // UnsatisfiedLinkError, NoClassDefFoundError, a wrong platform, ...
                    String why = "its native library failed to load: " + e;
                    if (causedByIo(e)) {
                        // Extracting the library to java.io.tmpdir failed (a full disk): that passes; try again later.
                        throw new EngineUnavailableException(ID, why);
                    }
                    loadFailure = why;
                }
            }
        }
        throw new EngineUnavailableException(ID, loadFailure);
    }

    private static boolean causedByIo(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    private static boolean onClasspath() {
        try {
            Class.forName(PROFILER_CLASS, false, AsyncProfilerEngine.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The two calls the engine needs from async-profiler, behind our own type: the engine never names its classes. */
    interface Access {

        /** Runs a command such as {@code start,event=cpu,...} or {@code stop} and returns its output. */
        String execute(String command) throws Exception;

        /** Samples taken since the last start. */
        long samples();
    }

    /** Loads async-profiler's native library; may throw anything, {@code UnsatisfiedLinkError} included. */
    @FunctionalInterface
    interface Loader {

        Access load() throws Exception;
    }
}
