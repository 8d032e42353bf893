package dev.cpuprofiler;

/** No engine could start recording; the message gives every engine's reason. */
public final class SessionStartException extends RuntimeException {

    public SessionStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
