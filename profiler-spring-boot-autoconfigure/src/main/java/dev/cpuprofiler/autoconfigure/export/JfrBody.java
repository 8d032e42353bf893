package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import java.io.IOException;
import java.util.Optional;

/**
 * The engine's own recording ({@link Profile.Recording#jfrFile()}), sent as Pyroscope's {@code jfr} format. The
 * store keeps it while the profile is retained (within {@code retained-size}); a profile whose recording was not kept
 * (too large, a disk at its floor) or is gone has none.
 */
public final class JfrBody implements ProfileBody {

    static final String FORMAT = ProfileFormat.JFR.id();

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public Optional<byte[]> encode(Profile profile) throws IOException {
        if (ProfileFormat.JFR.missing(profile).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(ProfileFormat.JFR.bytes(profile, ProfileView.FULL));
    }
}
