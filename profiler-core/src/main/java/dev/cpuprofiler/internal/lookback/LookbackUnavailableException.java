package dev.cpuprofiler.internal.lookback;

/** The look-back's sampler cannot run in this JVM; the message says why. */
final class LookbackUnavailableException extends Exception {

    private static final long serialVersionUID = 1L;

    public LookbackUnavailableException(String message) {
        super(message);
    }

    public LookbackUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
