package dev.cpuprofiler.internal.engine;

/** Loads async-profiler's native library; may throw anything, {@code UnsatisfiedLinkError} included. */
@FunctionalInterface
interface AsyncProfilerLoader {

    AsyncProfilerAccess load() throws Exception;
}
