package dev.cpuprofiler.autoconfigure.endpoint;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The endpoint's static files (the status page, the small HTML reply), read once from beside these classes. */
final class EndpointResources {

    private EndpointResources() {
    }

    static String text(String name) {
        try (InputStream in = EndpointResources.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " next to " + EndpointResources.class);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
