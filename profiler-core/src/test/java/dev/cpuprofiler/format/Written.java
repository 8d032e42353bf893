package dev.cpuprofiler.format;

import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** What a format writes for a profile, in memory. */
public final class Written {

    private Written() {
    }

    public static byte[] bytes(ProfileFormat format, Profile profile, ProfileView view) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            format.write(profile, view, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** pprof, gzipped, of the whole tree in this look-back view. */
    public static byte[] pprof(Profile profile, LookbackView view) {
        return bytes(ProfileFormat.PPROF, profile, ProfileView.of(view));
    }
}
