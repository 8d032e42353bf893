package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.StackTreeSnapshot;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Writes a merged tree in one output format, streaming to the given output. */
public interface StackTreeRenderer {

    /** The media type of the output, e.g. {@code application/json}. */
    String mediaType();

    /** Writes the tree; does not close {@code out}. */
    void render(StackTreeSnapshot tree, OutputStream out) throws IOException;

    /** The whole rendering as a String (UTF-8); for small trees and tests. */
    default String renderToString(StackTreeSnapshot tree) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            render(tree, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
