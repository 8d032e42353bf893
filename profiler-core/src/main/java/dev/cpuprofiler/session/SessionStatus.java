package dev.cpuprofiler.session;

/** How a session ended. */
public enum SessionStatus {
    COMPLETED,
    FAILED
}
