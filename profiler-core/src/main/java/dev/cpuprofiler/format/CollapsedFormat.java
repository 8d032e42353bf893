package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.internal.stack.CollapsedStacksRenderer;
import java.io.IOException;
import java.io.OutputStream;

/** One line per distinct stack, root first, then its weight: what flamegraph.pl and speedscope read. */
final class CollapsedFormat extends FormatBase {

    private final CollapsedStacksRenderer renderer = new CollapsedStacksRenderer();

    CollapsedFormat() {
        super("collapsed", "text/plain;charset=UTF-8", ".collapsed.txt", false);
    }

    @Override
    public void write(Profile profile, ProfileView view, OutputStream out) throws IOException {
        renderer.render(view.tree(profile), out);
    }
}
