package dev.cpuprofiler.internal.engine;

/**
 * Whether the JVM has begun to shut down. Starting a JFR recording then never returns: JFR's own shutdown hook has
 * stopped its recorder, {@code JVM.beginRecording} waits for it holding JFR's lock, and the application's shutdown
 * hook that closes the profiler then waits on that lock, so the JVM never exits (seen with the look-back arming on a
 * tick during a SIGTERM). Nothing of the profiler starts JFR once this says so.
 */
public final class JvmShutdown {

    private JvmShutdown() {
    }

    /** True once shutdown hooks run: the JVM refuses a new hook from then on, and that refusal is the only sign. */
    public static boolean inProgress() {
        Thread probe = new Thread(() -> { }, "cpuprofiler-shutdown-probe");
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        } catch (SecurityException e) {
            return false;
        }
    }
}
