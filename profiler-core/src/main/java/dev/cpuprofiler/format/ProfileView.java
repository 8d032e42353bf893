package dev.cpuprofiler.format;

import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.internal.compare.ProfileComparator;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.LookbackTrees;
import dev.cpuprofiler.internal.stack.StackTreePruner;
import dev.cpuprofiler.internal.stack.ThreadNames;
import dev.cpuprofiler.internal.stack.TreeGroups;
import java.util.Arrays;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which part of a profile a format writes: with or without its look-back part ({@code ?lookback=}), how its stacks
 * are grouped ({@code ?group=}), whether frames below a share of the samples fold into one marker (the status's
 * folded view of the latest profile), and what it is compared with ({@code ?compare=}).
 *
 * @param lookback the look-back part: included (the default), left out, or alone
 * @param minPercent fold frames below this share of all samples (0 keeps every frame)
 * @param group how stacks are grouped; null for as the profile was recorded ({@code profiler.cpu.group-by-thread})
 * @param thread one thread's stacks only ({@code ?thread=}): a SATURATION profile's pinned thread (its own, by id), or
 *        in a profile recorded by thread the group of that name (a pool's threads folded as the tree folds them);
 *        null for every thread
 * @param compare what the profile is compared with: {@link Compare#STORED} (null reads so), {@link Compare#NONE} or
 *        {@link Compare#with(Profile) another profile}
 */
public record ProfileView(LookbackView lookback, double minPercent, Group group, String thread, Compare compare) {

    /** Everything: the session's samples and the look-back's, no frame folded, grouped as recorded. */
    public static final ProfileView FULL = new ProfileView(LookbackView.INCLUDE, 0);

    /** The group of the look-back's samples when stacks are grouped by endpoint: it has no requests. */
    private static final Frame LOOKBACK_GROUP = new Frame("look-back", FrameKind.ENDPOINT);

    /** How a view groups stacks: the first frame of each names its group. */
    public enum Group {
        /** No group: the stacks as they ran. */
        NONE,
        /** Under the thread that ran them (numbered pool threads folded), when the profile recorded threads. */
        THREAD,
        /** Under the request their thread served ({@code [GET /owners/{id}]}, {@code [no request]}). */
        ENDPOINT;

        /** {@code none}, {@code thread}, {@code endpoint}. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The group named so, any case; empty for any other name. */
        public static Optional<Group> of(String id) {
            return Arrays.stream(values()).filter(g -> g.id().equalsIgnoreCase(id.trim())).findFirst();
        }
    }

    /**
     * What a view compares its profile with ({@code ?compare=}). JSON and text show what changed (the endpoints'
     * rates and costs per request with a verdict, the methods that grew); collapsed, html and pprof draw the other
     * profile's stacks beside the profile's, in the same view, when {@link #reference} is given (never by default: a
     * plain {@code format=pprof} is the profile itself).
     *
     * @param reference the profile compared with, in every format; null for the profile's own comparison or none
     * @param stored without a reference: whether JSON and text show the comparison the profile carries (the default)
     */
    public record Compare(Profile reference, boolean stored) {

        /** The default: JSON and text show the profile's own comparison, if any; the other formats the profile alone. */
        public static final Compare STORED = new Compare(null, true);

        /** No comparison in any format ({@code ?compare=none}). */
        public static final Compare NONE = new Compare(null, false);

        public Compare {
            if (reference != null && stored) {
                throw new IllegalArgumentException("a comparison with profile '" + reference.id()
                        + "' is not the stored one: use Compare.with");
            }
        }

        /** Compared with that profile, in every format. */
        public static Compare with(Profile reference) {
            return new Compare(Objects.requireNonNull(reference, "reference"), false);
        }

        /**
         * What a reader asks {@code profile} to be compared with ({@code ?compare=}): blank for {@link #STORED},
         * {@code none}, {@code reference} for the reference its comparison names (in every format), or a kept
         * profile's id ({@code latest} the newest), found by {@code kept}.
         *
         * @throws NoSuchElementException with the reason, when the profile to compare with is not kept or there is none
         */
        public static Compare asked(String requested, Profile profile, Function<String, Optional<Profile>> kept) {
            if (requested == null || requested.isBlank()) {
                return STORED;
            }
            String asked = requested.trim();
            if (asked.equalsIgnoreCase("none")) {
                return NONE;
            }
            if (!asked.equalsIgnoreCase("reference")) {
                return with(kept.apply(asked).orElseThrow(() -> new NoSuchElementException("No profile '" + asked
                        + "' to compare profile '" + profile.id() + "' with: use reference, none or a kept profile's "
                        + "id")));
            }
            Profile.Comparison stored = profile.comparison();
            if (stored == null) {
                throw new NoSuchElementException("Profile '" + profile.id() + "' has no reference to compare with: "
                        + (profile.trigger() == SessionTrigger.REFERENCE ? "it is a reference itself"
                        : "no reference of normal had been recorded when it started") + "; compare=<id> compares it "
                        + "with any kept profile");
            }
            return with(kept.apply(stored.reference()).orElseThrow(() -> new NoSuchElementException("The reference '"
                    + stored.reference() + "' profile '" + profile.id() + "' was compared with is no longer kept; "
                    + "compare=<id> compares it with a kept profile")));
        }
    }

    public ProfileView {
        Objects.requireNonNull(lookback, "lookback");
        if (!(minPercent >= 0 && minPercent < 100)) {
            throw new IllegalArgumentException("minPercent must be at least 0 and below 100, not " + minPercent);
        }
        compare = compare == null ? Compare.STORED : compare;
    }

    /** Compared as stored ({@link Compare#STORED}). */
    public ProfileView(LookbackView lookback, double minPercent, Group group, String thread) {
        this(lookback, minPercent, group, thread, Compare.STORED);
    }

    /** Grouped as the profile was recorded. */
    public ProfileView(LookbackView lookback, double minPercent) {
        this(lookback, minPercent, null);
    }

    public ProfileView(LookbackView lookback, double minPercent, Group group) {
        this(lookback, minPercent, group, null);
    }

    /** This view, of one thread's stacks (null: every thread's). */
    public ProfileView ofThread(String threadName) {
        return new ProfileView(lookback, minPercent, group, threadName, compare);
    }

    /** This view, compared as given (null: as stored). */
    public ProfileView comparedWith(Compare with) {
        return new ProfileView(lookback, minPercent, group, thread, with);
    }

    /**
     * This view, of the thread a reader asks for ({@code ?thread=}): blank for as the format offers it, {@code all}
     * for every thread. Text and the flame graph offer a SATURATION profile's pinned thread first (but a differential
     * flame graph, every thread, as the profile compared with has them); the other formats, every thread, as an
     * exporter or a tool expects.
     */
    public ProfileView ofThread(String requested, Profile profile, ProfileFormat format) {
        if (requested == null || requested.isBlank()) {
            boolean offered = profile.saturation() != null && (format == ProfileFormat.TEXT
                    || format == ProfileFormat.HTML && compare.reference() == null);
            return ofThread(offered ? profile.saturation().thread() : null);
        }
        return ofThread(requested.equals(ALL_THREADS) ? null : requested);
    }

    /** {@code ?thread=all}: every thread's stacks. */
    public static final String ALL_THREADS = "all";

    /** Every frame, with the look-back part as given, grouped as recorded. */
    public static ProfileView of(LookbackView lookback) {
        return new ProfileView(lookback, 0);
    }

    /** Every frame, with the look-back part and the grouping as given (null: as recorded). */
    public static ProfileView of(LookbackView lookback, Group group) {
        return new ProfileView(lookback, 0, group);
    }

    /** The group this view shows of that profile: its own, or as the profile was recorded. */
    public Group group(Profile profile) {
        return group != null ? group : byThread(profile) ? Group.THREAD : Group.NONE;
    }

    /**
     * The view a format that labels samples draws (pprof, OTLP): this one, but a profile with endpoints is grouped by
     * endpoint unless its threads are asked for, so that every sample carries its endpoint as a label, not a frame.
     */
    ProfileView labelled(Profile profile) {
        return group(profile) == Group.NONE && profile.requests().endpointTree() != null && thread == null
                ? new ProfileView(lookback, minPercent, Group.ENDPOINT, null, compare) : this;
    }

    /**
     * What changed, as JSON and text show it: the profile's own comparison ({@link Compare#STORED}), none, or what
     * changed from the view's reference (the stored one when it names that profile: it was made from the same two).
     */
    Profile.Comparison comparison(Profile profile) {
        Profile reference = compare.reference();
        if (reference == null) {
            return compare.stored() ? profile.comparison() : null;
        }
        Profile.Comparison stored = profile.comparison();
        return stored != null && stored.reference().equals(reference.id()) ? stored
                : ProfileComparator.compare(reference, profile);
    }

    /** The profile collapsed, html and pprof draw the profile against, or null: the profile alone. */
    Profile reference() {
        return compare.reference();
    }

    /** This view of the reference: the same part, grouping and thread, compared with nothing. */
    ProfileView ofReference() {
        return new ProfileView(lookback, minPercent, group, thread, Compare.NONE);
    }

    /**
     * The seconds of recording this view's tree of that profile covers: the session's, the look-back's before it, or
     * both; what the stacks of two profiles of different lengths are scaled by to compare per second.
     */
    double seconds(Profile profile) {
        double session = profile.recording().duration().toNanos() / 1e9;
        LookbackSnapshot l = profile.lookback();
        double before = l == null || l.weight() == 0 || pinnedThread(profile) ? 0 : l.duration().toNanos() / 1e9;
        return switch (lookback) {
            case INCLUDE -> session + before;
            case EXCLUDE -> session;
            case ONLY -> before;
        };
    }

    /** Whether this view's first level is the profile's endpoints (else its threads, if any). */
    boolean byEndpoint(Profile profile) {
        return group(profile) == Group.ENDPOINT && profile.requests().endpointTree() != null;
    }

    /**
     * Why this view cannot be written in that format (no endpoints, no threads recorded), of the profile or, for a
     * format that draws the profile compared with (collapsed, html, pprof), of that one; or empty.
     */
    public Optional<String> missing(Profile profile, ProfileFormat format) {
        Profile reference = compare.reference();
        boolean drawn = format == ProfileFormat.COLLAPSED || format == ProfileFormat.HTML
                || format == ProfileFormat.PPROF;
        return missing(profile).or(() -> reference == null || !drawn ? Optional.empty()
                : ofReference().missing(reference).map(why -> "Profile '" + profile.id()
                        + "' cannot be compared with '" + reference.id() + "' in this view: " + why));
    }

    /** Why this view cannot be drawn from that profile (no endpoints, no threads recorded), or empty. */
    public Optional<String> missing(Profile profile) {
        Group g = group(profile);
        if (thread != null) {
            return missingThread(profile, g);
        }
        if (g == Group.ENDPOINT && profile.requests().endpointTree() == null) {
            String why = profile.recording().notes().stream().filter(n -> n.startsWith("no endpoints")).findFirst()
                    .orElse("no endpoints: it recorded no request");
            return Optional.of("Profile '" + profile.id() + "' has " + why);
        }
        if (g == Group.ENDPOINT && lookback == LookbackView.ONLY) {
            return Optional.of("lookback=only has no endpoints: requests are recorded only while a session records");
        }
        if (g == Group.THREAD && !byThread(profile) && profile.recording().samples() > 0) {
            return Optional.of("Profile '" + profile.id() + "' was recorded without threads: "
                    + "profiler.cpu.group-by-thread=true records them");
        }
        return Optional.empty();
    }

    private Optional<String> missingThread(Profile profile, Group g) {
        if (g == Group.ENDPOINT) {
            return Optional.of("thread and group=endpoint do not go together: one thread's stacks are kept without "
                    + "endpoints; group=endpoint shows every thread's");
        }
        if (lookback == LookbackView.ONLY) {
            return Optional.of("lookback=only has no stacks of one thread: thread= shows the session's samples");
        }
        if (pinnedThread(profile) || TreeGroups.hasGroup(profile.tree(), ThreadNames.groupFrame(thread))) {
            return Optional.empty();
        }
        Profile.Saturation s = profile.saturation();
        return Optional.of("Profile '" + profile.id() + "' has no stacks of thread '" + thread + "': "
                + (s != null ? "it keeps its pinned thread's, thread=" + s.thread()
                        : byThread(profile) ? "no thread of that name ran in it"
                        : "it was recorded without threads (profiler.cpu.group-by-thread=true records them)"));
    }

    /** Whether the profile recorded its threads: its tree's first level are thread groups. */
    private static boolean byThread(Profile profile) {
        return TreeGroups.groupedBy(profile.tree()) == FrameKind.THREAD;
    }

    /** Whether {@link #thread} is the one a SATURATION profile keeps apart. */
    private boolean pinnedThread(Profile profile) {
        return thread != null && profile.saturation() != null && thread.equals(profile.saturation().thread());
    }

    /** The profile's tree in this view's look-back part and grouping, every frame kept. */
    public StackTreeSnapshot fullTree(Profile profile) {
        if (pinnedThread(profile)) {
            StackTreeSnapshot own = profile.saturation().tree();
            return group(profile) == Group.THREAD ? TreeGroups.under(ThreadNames.groupFrame(thread), own) : own;
        }
        if (thread != null) {
            StackTreeSnapshot one = TreeGroups.only(LookbackTrees.select(lookback, profile.tree(), profile.lookback()),
                    ThreadNames.groupFrame(thread));
            return group(profile) == Group.THREAD ? one : TreeGroups.withoutGroups(one);
        }
        return fullTree(profile, profile.requests().endpointTree());
    }

    /**
     * The tree a format that labels samples draws from {@link #labelled} this view: {@link #tree}, but by endpoint,
     * every frame kept, with each traced request's samples under its trace and span groups when the profile has them
     * ({@link Profile.Requests#spanTree}), for span labels.
     */
    StackTreeSnapshot labelledTree(Profile profile) {
        return byEndpoint(profile) && profile.requests().spanTree() != null && minPercent == 0
                ? fullTree(profile, profile.requests().spanTree()) : tree(profile);
    }

    private StackTreeSnapshot fullTree(Profile profile, StackTreeSnapshot endpointTree) {
        Group g = group(profile);
        if (g == Group.ENDPOINT && endpointTree != null) {
            LookbackSnapshot l = profile.lookback();
            if (lookback == LookbackView.EXCLUDE || l == null || l.weight() == 0) {
                return endpointTree;
            }
            StackTreeSnapshot before = TreeGroups.under(LOOKBACK_GROUP, TreeGroups.withoutGroups(l.tree()));
            return lookback == LookbackView.ONLY ? before : TreeGroups.merged(endpointTree, before);
        }
        StackTreeSnapshot recorded = LookbackTrees.select(lookback, profile.tree(), profile.lookback());
        return g == Group.NONE ? TreeGroups.withoutGroups(recorded) : recorded;
    }

    /** The tree this view shows: {@link #fullTree} with the small frames folded. */
    public StackTreeSnapshot tree(Profile profile) {
        StackTreeSnapshot full = fullTree(profile);
        return minPercent > 0 ? StackTreePruner.prune(full, minPercent) : full;
    }
}
