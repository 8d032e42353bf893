package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;

/** A flame graph in one self-contained HTML page, titled with what recorded the profile. */
final class FlameGraphFormat extends FormatBase {

    FlameGraphFormat() {
        super("html", "text/html;charset=UTF-8", ".html");
    }

    @Override
    public void write(Profile p, ProfileView view, OutputStream out) throws IOException {
        String title = "CPU profile " + p.id() + " (" + p.trigger() + ", " + p.engine() + ", " + p.samples()
                + " samples" + lookbackTitle(p, view) + ")" + (view.thread() == null ? ""
                        : ": thread " + view.thread() + (p.saturation() != null && view.thread().equals(
                                p.saturation().thread()) ? String.format(Locale.ROOT, ", pinned at %.0f%% of one core",
                                p.saturation().percentOfCore()) : ""));
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
