package dev.cpuprofiler;


/** Told when a session ends (metrics count them). {@code session} is null when it never started. */
@FunctionalInterface
public interface SessionEndListener {

    void sessionEnded(SessionTrigger trigger, RunningSession session, SessionOutcome outcome);
}
