package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.format.ProfileView.Compare;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * {@code ?compare=reference|<id>|none} of {@code GET /{id}}: what the profile is compared with. Left out, JSON and text
 * show the comparison the profile carries and the other formats the profile alone ({@link Compare#STORED}); {@code none}
 * shows no comparison anywhere; {@code reference} compares with the reference the profile's comparison names, in every
 * format; any other value is a kept profile's id to compare with now ({@code latest} the newest).
 *
 * @param compare what the formats compare the profile with, or null when it cannot be found
 * @param missing why not (a 404's reason), or null
 */
record CompareParameter(@Nullable Compare compare, @Nullable String missing) {

    static final String REFERENCE = "reference";
    static final String NONE = "none";

    /** What {@code compare} asks of the profile {@code profile}, its profiles found in {@code profiler}. */
    static CompareParameter of(@Nullable String compare, Profile profile, CpuProfiler profiler) {
        if (compare == null || compare.isBlank()) {
            return new CompareParameter(Compare.STORED, null);
        }
        String asked = compare.trim();
        if (asked.equalsIgnoreCase(NONE)) {
            return new CompareParameter(Compare.NONE, null);
        }
        if (asked.equalsIgnoreCase(REFERENCE)) {
            Profile.Comparison stored = profile.comparison();
            if (stored == null) {
                return missing("Profile '" + profile.id() + "' has no reference to compare with: " + (profile
                        .trigger() == SessionTrigger.REFERENCE ? "it is a reference itself"
                        : "no reference of normal had been recorded when it started") + "; compare=<id> compares it with any "
                        + "kept profile");
            }
            return found(profiler.profile(stored.reference()), "The reference '" + stored.reference()
                    + "' profile '" + profile.id() + "' was compared with is no longer kept; compare=<id> compares it "
                    + "with a kept profile");
        }
        return found(profiler.profile(asked), "No profile '" + asked + "' to compare profile '" + profile.id()
                + "' with: use reference, none or a kept profile's id");
    }

    private static CompareParameter found(Optional<Profile> other, String otherwise) {
        return other.map(p -> new CompareParameter(Compare.with(p), null)).orElseGet(() -> missing(otherwise));
    }

    private static CompareParameter missing(String why) {
        return new CompareParameter(null, why);
    }
}
