package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.internal.core.DefaultCpuProfiler;

/** Puts a made-up profile into a profiler's store, as if a session had recorded it. */
public final class StoredProfiles {

    private StoredProfiles() {
    }

    public static Profile add(CpuProfiler profiler, Profile profile) {
        return ((DefaultCpuProfiler) profiler).store().add(profile);
    }
}
