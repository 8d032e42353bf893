package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.StackTreeSnapshot;
import java.time.Duration;

/**
 * A profile's tree and the tree of the profile it is compared with, both in the same view (look-back part, grouping,
 * thread), what the two-count collapsed stacks and the differential flame graph are drawn from. The reference's
 * weights count per second as the profile's do: a sample weighs one sampling period of CPU, so a weight is scaled by
 * {@link #scale} = (its sampling period ÷ the profile's) × (the profile's seconds ÷ its seconds), the seconds being
 * those each view covers ({@link ProfileView#seconds}). A 10-s reference's stacks then weigh what they would in the
 * profile's 30 s at the reference's rate, and code that burns the same CPU a second in both weighs the same.
 *
 * @param reference the compared-with profile's tree, its weights as recorded
 * @param scale what a reference weight is multiplied by to weigh per second as the profile's do
 * @param profile the profile's tree
 */
record ComparedTrees(StackTreeSnapshot reference, double scale, StackTreeSnapshot profile) {

    /** The trees of a view that has a reference ({@link ProfileView#reference()}). */
    static ComparedTrees of(Profile profile, ProfileView view) {
        Profile reference = view.reference();
        ProfileView ofReference = view.ofReference();
        double periods = (double) nanos(reference) / nanos(profile);
        double seconds = view.seconds(profile) / Math.max(ofReference.seconds(reference), 1e-3);
        return new ComparedTrees(ofReference.tree(reference), periods * seconds, view.tree(profile));
    }

    /** A reference weight as the profile's count: scaled, to the nearest whole sample. */
    long referenceWeight(long weight) {
        return Math.round(weight * scale);
    }

    private static long nanos(Profile p) {
        Duration period = p.recording().samplingPeriod();
        return period == null || period.isZero() ? 1 : period.toNanos();
    }
}
