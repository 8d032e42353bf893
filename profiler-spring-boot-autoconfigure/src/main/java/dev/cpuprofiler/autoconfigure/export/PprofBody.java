package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.internal.session.PprofEncoder;
import dev.cpuprofiler.Profile;
import java.util.Optional;

/**
 * The default body: the profile as gzipped pprof ({@code profile.proto}), with its look-back part
 * ({@code LookbackView.INCLUDE}: the same samples the endpoint shows by default).
 */
public final class PprofBody implements ProfileBody {

    static final String FORMAT = "pprof";

    private final PprofEncoder encoder = new PprofEncoder();

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public Optional<byte[]> encode(Profile profile) {
        return Optional.of(encoder.gzipped(profile, LookbackView.INCLUDE));
    }
}
