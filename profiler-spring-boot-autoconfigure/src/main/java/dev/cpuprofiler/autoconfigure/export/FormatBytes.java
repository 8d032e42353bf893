package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/** A profile in one format, whole (with its look-back part, as the endpoint shows it by default), in memory. */
final class FormatBytes {

    private FormatBytes() {
    }

    static byte[] of(ProfileFormat format, Profile profile) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        format.write(profile, ProfileView.FULL, out);
        return out.toByteArray();
    }
}
