package dev.cpuprofiler.internal.cpu;

/**
 * A monotonic nanosecond clock. Injected everywhere elapsed time matters so that tests can drive time
 * by hand; {@link java.time.Clock} is kept for wall-clock instants shown to users.
 */
@FunctionalInterface
public interface Ticker {

    long nanoTime();

    static Ticker system() {
        return System::nanoTime;
    }
}
