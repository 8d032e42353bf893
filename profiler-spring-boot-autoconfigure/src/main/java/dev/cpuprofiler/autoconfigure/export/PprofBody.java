package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import java.io.IOException;
import java.util.Optional;

/**
 * The default body: the profile as gzipped pprof ({@code profile.proto}), with its look-back part
 * ({@code LookbackView.INCLUDE}: the same samples the endpoint shows by default).
 */
public final class PprofBody implements ProfileBody {

    static final String FORMAT = ProfileFormat.PPROF.id();

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public Optional<byte[]> encode(Profile profile) throws IOException {
        return Optional.of(ProfileFormat.PPROF.bytes(profile, ProfileView.FULL));
    }
}
