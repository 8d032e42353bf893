package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.LookbackSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A look-back that has just stopped sampling for a session ({@link Lookback#handOver()}): the engine lock is free,
 * so the session's engine can start at once, while the look-back's last samples are still on their way (JFR
 * delivers them at its next flush, up to a second later). Its ring's samples are taken once delivered, with notes on
 * what they cover and what they lack.
 */
public final class LookbackHandOver {

    private static final Logger log = LoggerFactory.getLogger(LookbackHandOver.class);
    // Longest wait in a hand-over's snapshot for the last samples (JFR flushes every second).
    static final Duration DELIVERY_WAIT = Duration.ofSeconds(3);

    /** What the recorder was doing up to the hand-over. */
    record Before(CpuProfilerStatus.LookbackState state, String reason, Instant recordingSince) {
    }

    private final LookbackRing ring;
    private final boolean alwaysArmed;
    private final Object recorder;
    private final Before before;
    private final Instant end;
    private final CompletionStage<Void> delivered;
    private LookbackSnapshot snapshot;

    /**
     * @param recorder the recorder's lock, held while the ring is drained
     * @param delivered completes once the samples taken before {@code end} are in the ring; null when none are coming
     */
    LookbackHandOver(LookbackRing ring, boolean alwaysArmed, Object recorder, Before before, Instant end,
            CompletionStage<Void> delivered) {
        this.ring = ring;
        this.alwaysArmed = alwaysArmed;
        this.recorder = recorder;
        this.before = before;
        this.end = end;
        this.delivered = delivered;
    }

    /**
     * The window's samples up to the hand-over, forgetting them (each sample goes into one profile at most). Waits,
     * boundedly, for the last samples to be delivered. Call it once the session's engine records.
     */
    public synchronized LookbackSnapshot snapshot() {
        if (snapshot == null) {
            boolean complete = awaitDelivery();
            synchronized (recorder) {
                snapshot = take(complete);
            }
        }
        return snapshot;
    }

    private boolean awaitDelivery() {
        if (delivered == null) {
            return true;
        }
        try {
            delivered.toCompletableFuture().get(DELIVERY_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            log.debug("Look-back's last samples did not arrive in {}: {}", DELIVERY_WAIT, e.toString());
            return false;
        }
    }

    private LookbackSnapshot take(boolean complete) {
        Duration period = ring.samplePeriod();
        LookbackRing.Contents contents = ring.drain(end);
        List<String> notes = new ArrayList<>();
        Instant since = before.recordingSince();
        Instant startedAt = since == null ? end : max(contents.coveredFrom(), since);
        if (since == null) {
            notes.add("look-back was not recording: " + (before.reason() != null ? before.reason()
                    : describe(before.state())));
        } else if (startedAt.isAfter(end.minus(ring.window()).plus(ring.bucketWidth()))) {
            notes.add("look-back covers " + Duration.between(startedAt, end).toMillis() / 1000.0
                    + " s of its " + ring.window() + " window: it " + (alwaysArmed ? "began recording"
                            : "armed") + " at " + since);
        }
        if (!complete) {
            notes.add("look-back's last samples (up to a second before the session) did not arrive in time");
        }
        if (!period.equals(ring.samplingPeriod())) {
            notes.add("look-back samples came every " + period.toMillis() + " ms, not " + ring.samplingPeriod()
                    .toMillis() + " ms: another JFR recording in this JVM samples that often, and JFR applies the "
                    + "finest period to all; they are weighed accordingly");
        }
        if (contents.tree().truncatedSamples() > 0) {
            notes.add("look-back stacks of weight " + contents.tree().truncatedSamples() + " were cut (under "
                    + "[truncated]): deeper than JFR's stack depth (64 frames unless -XX:FlightRecorderOptions:"
                    + "stackdepth=… raises it) or max-stack-depth " + ring.maxStackDepth()
                    + ", or beyond the look-back's " + ring.maxTreeNodes() + "-node budget");
        }
        log.debug("Look-back handed over: {} samples from {} to {}", contents.samples(), startedAt, end);
        return new LookbackSnapshot(startedAt, end, period, ring.weightUnit(), contents.samples(),
                contents.tree(), notes);
    }

    private static String describe(CpuProfilerStatus.LookbackState s) {
        return switch (s) {
            case WAITING -> "another recording held the engine lock";
            case STEPPED_ASIDE -> "it steps aside during sessions and the cooldown after a CPU-triggered one";
            case IDLE -> "it was idle: the CPU had not reached its arming level";
            default -> "it was " + s.name().toLowerCase(Locale.ROOT);
        };
    }

    static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
