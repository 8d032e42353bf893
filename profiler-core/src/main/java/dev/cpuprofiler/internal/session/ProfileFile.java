package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.Profile;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One file {@link ProfileFileWriter} writes per profile: {@code <id><extension>}, with what {@code writer} writes.
 * The assembly gives it the formats' own extensions and writers.
 */
public record ProfileFile(String extension, Writer writer) {

    /** Writes one profile; does not close {@code out}. */
    @FunctionalInterface
    public interface Writer {
        void write(Profile profile, OutputStream out) throws IOException;
    }
}
