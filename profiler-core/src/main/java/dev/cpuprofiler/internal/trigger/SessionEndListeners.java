package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.SessionEndListener;

import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Who is told when a session ends; one failing listener neither stops the others nor the policy. */
final class SessionEndListeners {

    private static final Logger log = LoggerFactory.getLogger(SessionEndListeners.class);

    private final List<SessionEndListener> listeners = new CopyOnWriteArrayList<>();

    void add(SessionEndListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    void ended(SessionTrigger trigger, RunningSession session, SessionOutcome outcome) {
        for (SessionEndListener l : listeners) {
            try {
                l.sessionEnded(trigger, session, outcome);
            } catch (RuntimeException e) {
                log.warn("Session end listener {} failed", l, e);
            }
        }
    }
}
