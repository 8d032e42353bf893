package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;

/**
 * A flame graph in one self-contained HTML page, titled with what recorded the profile; compared with another profile
 * ({@link ProfileView#reference()}), a differential flame graph drawn by async-profiler's converter
 * ({@link FlameGraphRenderer#render(ComparedTrees, OutputStream)}), its title saying what the colours mean.
 */
final class FlameGraphFormat extends FormatBase {

    FlameGraphFormat() {
        super("html", "text/html;charset=UTF-8", ".html");
    }

    @Override
    public void write(Profile p, ProfileView view, OutputStream out) throws IOException {
        String title = "CPU profile " + p.id() + " (" + p.trigger() + ", " + p.recording().engine() + ", "
                + p.recording().samples() + " samples" + lookbackTitle(p, view) + ")" + (view.thread() == null ? ""
                        : ": thread " + view.thread() + (p.saturation() != null && view.thread().equals(
                                p.saturation().thread()) ? String.format(Locale.ROOT, ", pinned at %.0f%% of one core",
                                p.saturation().percentOfCore()) : ""));
        Profile reference = view.reference();
        if (reference == null) {
            new FlameGraphRenderer(title, 0).render(view.tree(p), out);
            return;
        }
        // The colours key, in the title: the converter's page has no legend of its diff colours.
        String against = title + " against " + reference.id() + " (" + reference.trigger() + ", "
                + reference.recording().samples() + " samples), per second: red more self time, blue less, grey as "
                + "much, yellow not in " + reference.id();
        new FlameGraphRenderer(against, 0).render(ComparedTrees.of(p, view), out);
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
