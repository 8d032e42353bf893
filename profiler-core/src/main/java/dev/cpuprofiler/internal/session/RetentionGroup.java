package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.SessionTrigger;

/**
 * The kinds of profiles the store and the output directory keep apart: each kind keeps its own newest
 * {@code retained-profiles} in memory and {@code output-retention} on disk, so a few on-demand profiles never push out
 * the profile of an incident. When memory ({@code retained-size}) is short, on-demand profiles go first.
 */
public enum RetentionGroup {

    /** Profiles someone asked for: the first to go when memory is short. */
    ON_DEMAND,
    /** CPU-triggered and saturation profiles: only another incident pushes one out. */
    INCIDENT;

    public static RetentionGroup of(SessionTrigger trigger) {
        return trigger == SessionTrigger.MANUAL ? ON_DEMAND : INCIDENT;
    }

    /**
     * Whether storing a profile of this group may push out one of {@code other} to make room in memory; the groups
     * are declared in the order they give way.
     */
    boolean mayPushOut(RetentionGroup other) {
        return other == this || other == ON_DEMAND;
    }
}
