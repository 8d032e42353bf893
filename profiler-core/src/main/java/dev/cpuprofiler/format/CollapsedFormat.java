package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.internal.stack.CollapsedStacksRenderer;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;

/** One line per distinct stack, root first, then its weight: what flamegraph.pl and speedscope read. */
final class CollapsedFormat implements ProfileFormat {

    private final CollapsedStacksRenderer renderer = new CollapsedStacksRenderer();

    @Override
    public String id() {
        return "collapsed";
    }

    @Override
    public String mediaType() {
        return "text/plain;charset=UTF-8";
    }

    @Override
    public String extension() {
        return ".collapsed.txt";
    }

    @Override
    public boolean download() {
        return false;
    }

    @Override
    public Optional<String> missing(Profile profile) {
        return Optional.empty();
    }

    @Override
    public void write(Profile profile, ProfileView view, OutputStream out) throws IOException {
        renderer.render(view.tree(profile), out);
    }
}
