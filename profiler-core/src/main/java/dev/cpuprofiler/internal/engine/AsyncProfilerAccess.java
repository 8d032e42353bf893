package dev.cpuprofiler.internal.engine;

/** The two calls the engine needs from async-profiler, behind our own type so the engine never names its classes. */
interface AsyncProfilerAccess {

    /** Runs a command such as {@code start,event=cpu,...} or {@code stop} and returns its output. */
    String execute(String command) throws Exception;

    /** Samples taken since the last start. */
    long samples();
}
