package dev.cpuprofiler.autoconfigure.export;

/** A profile that a target cannot send at all (no body in its format); its message goes into the status. */
public class UnsendableProfileException extends Exception {

    private static final long serialVersionUID = 1L;

    public UnsendableProfileException(String message, Throwable cause) {
        super(message, cause);
    }

    public UnsendableProfileException(String message) {
        super(message);
    }
}
