package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Optional;

/** What every format states about itself; a format only adds how it writes (and, for a file, when it has none). */
abstract class FormatBase implements ProfileFormat {

    private final String id;
    private final String mediaType;
    private final String extension;

    FormatBase(String id, String mediaType, String extension) {
        this.id = id;
        this.mediaType = mediaType;
        this.extension = extension;
    }

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String mediaType() {
        return mediaType;
    }

    @Override
    public final String extension() {
        return extension;
    }

    /** Every profile can be written, but for a recording that was not kept. */
    @Override
    public Optional<String> missing(Profile profile) {
        return Optional.empty();
    }

    @Override
    public final byte[] bytes(Profile profile, ProfileView view) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        write(profile, view, out);
        return out.toByteArray();
    }

    @Override
    public String toString() {
        return id;
    }
}
