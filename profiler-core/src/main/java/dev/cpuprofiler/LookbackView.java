package dev.cpuprofiler;


import java.util.Locale;

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

    /** {@code include}, {@code exclude} or {@code only}, any case. */
    public static LookbackView fromId(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown lookback view '" + value
                    + "': use include, exclude or only", e);
        }
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
