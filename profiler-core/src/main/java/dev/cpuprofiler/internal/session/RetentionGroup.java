package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.SessionTrigger;

/**
 * The kinds of profiles the store and the output directory keep apart: each kind keeps its own newest
 * {@code retained-profiles} in memory and {@code output-retention} on disk, so a few on-demand profiles never push out
 * the profile of an incident. When memory ({@code retained-size}) is short, on-demand profiles go first. References of
 * normal are kept apart from both: {@code retained-profiles} does not count them, no other profile pushes one out, and
 * the store keeps the newest and those a kept profile was compared with ({@link ProfileStore}).
 */
public enum RetentionGroup {

    /** Profiles someone asked for: the first to go when memory is short. */
    ON_DEMAND,
    /** CPU-triggered, saturation and latency profiles: only another incident pushes one out. */
    INCIDENT,
    /** References of normal: kept while they are the newest or a kept profile's comparison names them. */
    REFERENCE;

    public static RetentionGroup of(SessionTrigger trigger) {
        return switch (trigger) {
            case MANUAL -> ON_DEMAND;
            case REFERENCE -> REFERENCE;
            case CPU, SATURATION, LATENCY -> INCIDENT;
        };
    }

    /** Whether {@code retained-profiles} bounds how many of this group the store keeps. */
    boolean counted() {
        return this != REFERENCE;
    }

    /**
     * Whether storing a profile of this group may push out one of {@code other} to make room in memory; the groups
     * are declared in the order they give way. A reference pushes out nothing, and nothing pushes out a reference.
     */
    boolean mayPushOut(RetentionGroup other) {
        return this != REFERENCE && other != REFERENCE && (other == this || other == ON_DEMAND);
    }
}
