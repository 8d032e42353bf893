package dev.cpuprofiler.internal.engine;

/** A recording that ran could not be read back or stopped cleanly. */
public final class EngineFailureException extends RuntimeException {

    public EngineFailureException(String message, Throwable cause) {
        super(message, cause);
    }
}
