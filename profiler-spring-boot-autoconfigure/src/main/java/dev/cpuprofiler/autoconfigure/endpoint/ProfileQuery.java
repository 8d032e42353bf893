package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import dev.cpuprofiler.format.ProfileView.Compare;
import dev.cpuprofiler.format.ProfileView.Group;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What {@code GET /{id}?format=&lookback=&group=&thread=&compare=} asks for, parsed once: the format and the view's
 * parts, each as asked or its default.
 *
 * @param group null when not asked (the profile's own grouping)
 * @param thread as asked (a name, {@code all}), or null
 * @param compare as asked ({@link Compare#asked}), or null
 */
record ProfileQuery(ProfileFormat format, LookbackView lookback, @Nullable Group group, @Nullable String thread,
        @Nullable String compare) {

    /** The query, or the reason it is refused (400): a value no format, view or grouping has. */
    static Parsed parse(@Nullable String format, @Nullable String lookback, @Nullable String group,
            @Nullable String thread, @Nullable String compare) {
        ProfileFormat f = blank(format) ? ProfileFormat.JSON : ProfileFormat.of(format).orElse(null);
        LookbackView view = blank(lookback) ? LookbackView.INCLUDE : LookbackView.of(lookback).orElse(null);
        Group g = blank(group) ? null : Group.of(group).orElse(null);
        String unknown = f == null ? "format '" + format + "': use " + ProfileFormat.servedIds()
                : view == null ? "lookback '" + lookback + "': use include, exclude or only"
                : g == null && !blank(group) ? "group '" + group + "': use none, thread or endpoint" : null;
        if (unknown != null) {
            return new Parsed(null, "Unknown " + unknown);
        }
        ProfileQuery query = new ProfileQuery(f, view, g, blank(thread) ? null : thread,
                blank(compare) ? null : compare);
        String shaped = query.shaping();
        if (f == ProfileFormat.JFR && shaped != null) {
            return new Parsed(null, shaped + " does not apply to format=jfr: the recording is the session's own as "
                    + "the engine wrote it (every thread, never grouped, the look-back part never in it, compared "
                    + "with nothing); leave lookback, group, thread and compare out, or use another format");
        }
        return new Parsed(query, null);
    }

    /** A parsed query, or the reason there is none. */
    record Parsed(@Nullable ProfileQuery query, @Nullable String refusal) {
    }

    /** The first parameter that shapes the profile beyond its format, as asked, or null. */
    private @Nullable String shaping() {
        return lookback != LookbackView.INCLUDE ? "lookback=" + lookback.id() : group != null ? "group=" + group.id()
                : thread != null ? "thread=" + thread : compare != null ? "compare=" + compare : null;
    }

    /**
     * The view of {@code profile} this query asks for, or why it has none (404): a reference or thread it names is
     * not there, or the format or view needs what the profile lacks.
     *
     * @param kept the profiles kept, by id ({@code compare=} names one)
     */
    Shown view(Profile profile, Function<String, Optional<Profile>> kept) {
        ProfileView shown;
        try {
            shown = ProfileView.of(lookback, group).comparedWith(Compare.asked(compare, profile, kept))
                    .ofThread(thread, profile, format);
        } catch (NoSuchElementException e) {
            return new Shown(null, e.getMessage());
        }
        return new Shown(shown, format.missing(profile).or(() -> shown.missing(profile, format)).orElse(null));
    }

    /** The view to render, or why the profile has none. */
    record Shown(@Nullable ProfileView view, @Nullable String missing) {
    }

    private static boolean blank(@Nullable String s) {
        return s == null || s.isBlank();
    }
}
