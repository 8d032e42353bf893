package dev.cpuprofiler.internal.cpu;

import org.slf4j.Logger;

/**
 * Whether a logger's DEBUG is on, asked again only every {@value #EVERY} calls: with Micrometer's logback metrics
 * installed (as in a Spring Boot app with actuator) each {@code isDebugEnabled()} runs a turbo filter chain, a tenth of
 * an idle tick. For code that runs on every tick or poll of one thread; a level changed at runtime is seen within
 * {@value #EVERY} calls. Not thread-safe: a second thread at worst asks once more.
 */
public final class DebugLevel {

    static final int EVERY = 10;

    private final Logger log;
    private int checkIn;
    private boolean debug;

    public DebugLevel(Logger log) {
        this.log = log;
    }

    /** Whether DEBUG was on when last asked. */
    public boolean on() {
        if (--checkIn <= 0) {
            checkIn = EVERY;
            debug = log.isDebugEnabled();
        }
        return debug;
    }
}
