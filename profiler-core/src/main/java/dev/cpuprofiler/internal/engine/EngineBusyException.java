package dev.cpuprofiler.internal.engine;

/** Another recording holds the {@link EngineLock}: only one engine records at a time. */
public final class EngineBusyException extends EngineUnavailableException {

    public EngineBusyException(String requestedEngine, String holder) {
        super(requestedEngine, "another recording is running (" + holder + "); only one engine records at a time");
    }
}
