package dev.cpuprofiler.format;

import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import java.io.IOException;
import java.io.UncheckedIOException;

/** What a format writes for a profile, in memory. */
public final class Written {

    private Written() {
    }

    public static byte[] bytes(ProfileFormat format, Profile profile, ProfileView view) {
        try {
            return format.bytes(profile, view);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** pprof, gzipped, of the whole tree in this look-back view. */
    public static byte[] pprof(Profile profile, LookbackView view) {
        return bytes(ProfileFormat.PPROF, profile, ProfileView.of(view));
    }
}
