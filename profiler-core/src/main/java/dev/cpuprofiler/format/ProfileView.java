package dev.cpuprofiler.format;

import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.internal.stack.LookbackTrees;
import dev.cpuprofiler.internal.stack.StackTreePruner;
import java.util.Objects;

/**
 * Which part of a profile a format writes: with or without its look-back part ({@code ?lookback=}), and whether
 * frames below a share of the samples fold into one marker (the status's folded view of the latest profile).
 *
 * @param lookback the look-back part: included (the default), left out, or alone
 * @param minPercent fold frames below this share of all samples (0 keeps every frame)
 */
public record ProfileView(LookbackView lookback, double minPercent) {

    /** Everything: the session's samples and the look-back's, no frame folded. */
    public static final ProfileView FULL = new ProfileView(LookbackView.INCLUDE, 0);

    public ProfileView {
        Objects.requireNonNull(lookback, "lookback");
        if (!(minPercent >= 0 && minPercent < 100)) {
            throw new IllegalArgumentException("minPercent must be at least 0 and below 100, not " + minPercent);
        }
    }

    /** Every frame, with the look-back part as given. */
    public static ProfileView of(LookbackView lookback) {
        return new ProfileView(lookback, 0);
    }

    /** The profile's tree in this view's look-back part, every frame kept. */
    public StackTreeSnapshot fullTree(Profile profile) {
        return LookbackTrees.select(lookback, profile.tree(), profile.lookback());
    }

    /** The tree this view shows: {@link #fullTree} with the small frames folded. */
    public StackTreeSnapshot tree(Profile profile) {
        StackTreeSnapshot full = fullTree(profile);
        return minPercent > 0 ? StackTreePruner.prune(full, minPercent) : full;
    }
}
