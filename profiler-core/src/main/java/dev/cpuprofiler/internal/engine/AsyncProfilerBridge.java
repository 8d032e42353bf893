package dev.cpuprofiler.internal.engine;

import java.nio.file.Path;
import one.profiler.AsyncProfiler;

/**
 * The only class that names {@code one.profiler.*}. It is touched only after {@link AsyncProfilerEngine} has found
 * {@code one.profiler.AsyncProfiler} on the classpath, so the engine itself loads fine without the optional jar.
 */
final class AsyncProfilerBridge implements AsyncProfilerEngine.Access {

    private final AsyncProfiler profiler;

    private AsyncProfilerBridge(AsyncProfiler profiler) {
        this.profiler = profiler;
    }

    /**
     * Loads the native library: from {@code libraryPath} when given, else the copy inside the jar (extracted to the
     * temp directory, or to {@code -Done.profiler.extractPath}).
     */
    static AsyncProfilerEngine.Access load(Path libraryPath) {
        AsyncProfiler profiler = AsyncProfiler.getInstance(libraryPath == null ? null : libraryPath.toString());
        profiler.getVersion(); // a native call: proves the library is really linked
        return new AsyncProfilerBridge(profiler);
    }

    @Override
    public String execute(String command) throws Exception {
        return profiler.execute(command);
    }

    @Override
    public long samples() {
        return profiler.getSamples();
    }
}
