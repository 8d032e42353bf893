package dev.cpuprofiler;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * Which samples of a profile with a look-back part a rendering shows: the endpoint's {@code lookback} parameter.
 * {@link #INCLUDE} is the default: the look-back is why the profile is worth reading.
 */
public enum LookbackView {
    /** The session's samples and the look-back's, merged. */
    INCLUDE,
    /** The session's samples only, as if look-back were off. */
    EXCLUDE,
    /** The look-back's samples only: what ran before the trigger. */
    ONLY;

    /** The view named {@code include}, {@code exclude} or {@code only}, any case; empty for any other name. */
    public static Optional<LookbackView> of(String id) {
        return Arrays.stream(values()).filter(v -> v.id().equalsIgnoreCase(id.trim())).findFirst();
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
