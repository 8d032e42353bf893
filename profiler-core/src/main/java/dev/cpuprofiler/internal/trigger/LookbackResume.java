package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.SessionEndListener;

import dev.cpuprofiler.internal.lookback.Lookback;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * After a session the look-back records again, but only from one window before the cooldown ends: its window is
 * full when the trigger can fire again, and nothing is sampled for the hours in between.
 */
public final class LookbackResume implements SessionEndListener {

    private final CpuTriggerPolicy policy;
    private final Lookback lookback;
    private final Duration window;
    private final Clock clock;

    public LookbackResume(CpuTriggerPolicy policy, Lookback lookback, Duration window, Clock clock) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.lookback = Objects.requireNonNull(lookback, "lookback");
        this.window = Objects.requireNonNull(window, "window");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void sessionEnded(SessionTrigger trigger, RunningSession session, SessionOutcome outcome) {
        if (policy.isShutDown()) {
            return; // no engine starts again while the application shuts down
        }
        lookback.resumeAt(policy.cooldownUntil().map(until -> until.minus(window)).orElse(clock.instant()));
    }
}
