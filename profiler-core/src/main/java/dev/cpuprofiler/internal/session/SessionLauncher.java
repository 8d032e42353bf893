package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.RunningSession;

import java.time.Duration;

/** Starts profiling sessions. The trigger policy decides when; the launcher knows how. */
@FunctionalInterface
public interface SessionLauncher {

    /**
     * Starts a session and returns at once; the session records on its own thread.
     *
     * @throws RuntimeException when no session could be started (the caller records it as failed)
     */
    RunningSession launch(SessionTrigger trigger, Duration duration);
}
