package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.internal.stack.FlameGraphRenderer;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;

/** A flame graph in one self-contained HTML page, titled with what recorded the profile. */
final class FlameGraphFormat implements ProfileFormat {

    @Override
    public String id() {
        return "html";
    }

    @Override
    public String mediaType() {
        return "text/html;charset=UTF-8";
    }

    @Override
    public String extension() {
        return ".html";
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
    public void write(Profile p, ProfileView view, OutputStream out) throws IOException {
        String title = "CPU profile " + p.id() + " (" + p.trigger() + ", " + p.engine() + ", " + p.samples()
                + " samples" + lookbackTitle(p, view) + ")";
        new FlameGraphRenderer(title, 0).render(view.tree(p), out);
    }

    private static String lookbackTitle(Profile p, ProfileView view) {
        if (p.lookback() == null) {
            return "";
        }
        return switch (view.lookback()) {
            case INCLUDE -> ", with " + p.lookback().samples() + " look-back samples";
            case EXCLUDE -> ", look-back left out";
            case ONLY -> ", look-back only";
        };
    }
}
