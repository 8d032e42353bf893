package dev.cpuprofiler.format;

import dev.cpuprofiler.StackTreeSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** What the formats' renderers draw of a bare tree, as a String: for tests of trees of any package. */
public final class Rendered {

    private Rendered() {
    }

    /** {@code frame;frame;frame count} lines, as {@code format=collapsed} writes them. */
    public static String collapsed(StackTreeSnapshot tree) {
        return string(out -> CollapsedFormat.write(tree, out));
    }

    /** The tree as the JSON format nests it. */
    public static String json(StackTreeSnapshot tree) {
        return string(out -> new JsonTreeRenderer().render(tree, out));
    }

    /** The tree as indented text, below the text format's summary. */
    public static String text(StackTreeSnapshot tree) {
        return text(new TextTreeRenderer(), tree);
    }

    static String text(TextTreeRenderer renderer, StackTreeSnapshot tree) {
        return string(out -> renderer.render(tree, out));
    }

    /** The flame graph page, with the renderer's default title. */
    public static String flameGraph(StackTreeSnapshot tree) {
        return flameGraph(new FlameGraphRenderer(), tree);
    }

    static String flameGraph(FlameGraphRenderer renderer, StackTreeSnapshot tree) {
        return string(out -> renderer.render(tree, out));
    }

    static String json(JsonTreeRenderer renderer, StackTreeSnapshot tree) {
        return string(out -> renderer.render(tree, out));
    }

    private interface Writing {
        void to(OutputStream out) throws IOException;
    }

    private static String string(Writing writing) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            writing.to(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
