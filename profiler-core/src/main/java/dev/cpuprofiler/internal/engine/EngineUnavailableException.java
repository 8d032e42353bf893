package dev.cpuprofiler.internal.engine;

/** An engine cannot record in this JVM (or not now); {@link #reason()} says why. */
public class EngineUnavailableException extends Exception {

    private final String engineId;
    private final String reason;

    public EngineUnavailableException(String engineId, String reason) {
        this(engineId, reason, null);
    }

    public EngineUnavailableException(String engineId, String reason, Throwable cause) {
        super(engineId + " cannot record: " + reason, cause);
        this.engineId = engineId;
        this.reason = reason;
    }

    /** The engine that refused, or {@code auto} when every engine did. */
    public String engineId() {
        return engineId;
    }

    /**
     * How a reason names an unexpected failure: its type only, as the reason is served (the status, a profile's
     * fallbacks, a 503), and an exception's text may hold anything, a path included; the log has the exception.
     */
    public static String unexpected(Throwable failure) {
        return failure.getClass().getSimpleName() + "; the application's log has the details";
    }

    /** Why, without the engine id. */
    public String reason() {
        return reason;
    }
}
