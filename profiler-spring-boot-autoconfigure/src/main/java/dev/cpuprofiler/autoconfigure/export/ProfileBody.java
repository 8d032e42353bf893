package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.Profile;
import java.io.IOException;
import java.util.Optional;

/**
 * What a profile looks like on the wire to Pyroscope: the {@code format} query parameter, the content type and the
 * bytes. A bean of this type replaces the one {@code profiler.cpu.export.pyroscope.format} picks.
 */
public interface ProfileBody {

    /** Pyroscope's {@code format} parameter, e.g. {@code pprof} or {@code jfr}. */
    String format();

    /**
     * The request's content type. Pyroscope reads a body that is not {@code multipart/form-data} as the profile
     * itself, so a raw body is sent as {@code application/octet-stream}.
     */
    default String contentType() {
        return "application/octet-stream";
    }

    /**
     * The body for this profile, or empty when this profile has none in this format (a JFR body for a profile whose
     * recording was not kept). Called on the exporter's thread, never on a session's.
     *
     * @throws IOException when the body cannot be read or built; the push counts as a failure
     */
    Optional<byte[]> encode(Profile profile) throws IOException;
}
