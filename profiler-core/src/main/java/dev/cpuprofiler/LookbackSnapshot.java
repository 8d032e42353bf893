package dev.cpuprofiler;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The look-back part of a profile: what was sampled in the window before a session started. Its tree is weighed in
 * the session's unit, so {@code sessionTree.merge(snapshot.tree())} gives a profile whose shares compare directly.
 *
 * @param startedAt the earliest time its samples can have: the window's start, or when the look-back began recording
 *     if that was later (after start-up, or after the previous session)
 * @param endedAt when it stopped recording, just before the session's engine started
 * @param samplingPeriod the period its samples came at (finer than configured if another JFR recording imposed it)
 * @param weightUnit the unit of the tree's weights: the sessions' sampling period
 * @param samples look-back samples taken; each weighs {@code samplingPeriod / weightUnit} in the tree
 * @param tree the samples merged, in {@code weightUnit}
 * @param notes what a reader should know (a finer imposed period, samples cut to fit, why it is empty)
 */
public record LookbackSnapshot(Instant startedAt, Instant endedAt, Duration samplingPeriod, Duration weightUnit,
        long samples, StackTreeSnapshot tree, List<String> notes) {

    public LookbackSnapshot {
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(endedAt, "endedAt");
        Objects.requireNonNull(samplingPeriod, "samplingPeriod");
        Objects.requireNonNull(weightUnit, "weightUnit");
        Objects.requireNonNull(tree, "tree");
        notes = List.copyOf(notes);
    }

    /** The tree's total: the look-back's samples in the session's unit. */
    public long weight() {
        return tree.totalSamples();
    }

    public Duration duration() {
        return Duration.between(startedAt, endedAt);
    }

    public boolean isEmpty() {
        return samples == 0;
    }
}
