package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.HistoryDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ProfileSummary;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.SessionDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.StatusDescriptor;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * The status page's chart as inline SVG, drawn here so that the page shows it without running its script: CPU% of
 * each recent sample (a line), the rolling baseline's slots (steps), the threshold (a dashed line) and the profiling
 * sessions (shaded spans), over the last minutes up to now. {@code status-page.js} redraws the same shapes, with the
 * same geometry, from the JSON status; the two must change together.
 */
final class StatusChart {

    static final int WIDTH = 960;
    static final int HEIGHT = 220;
    static final int LEFT = 40;
    static final int RIGHT = 10;
    static final int TOP = 10;
    static final int BOTTOM = 24;
    /** The chart shows at least this much time, and at most the baseline's history or the samples kept. */
    static final double MIN_SPAN_SECONDS = 60;

    private StatusChart() {
    }

    static String svg(StatusDescriptor s) {
        HistoryDescriptor h = s.history();
        Instant at = h == null ? Instant.now() : Instant.parse(h.at());
        double span = MIN_SPAN_SECONDS;
        if (h != null) {
            for (double[] p : h.samples()) {
                span = Math.max(span, -p[0]);
            }
            for (double[] slot : h.baseline()) {
                span = Math.max(span, -slot[0]);
            }
        }
        Scale x = new Scale(span);
        StringBuilder svg = new StringBuilder(8192).append("<svg id=\"cpu-chart\" viewBox=\"0 0 ").append(WIDTH)
                .append(' ').append(HEIGHT).append("\" role=\"img\" aria-label=\"CPU% over the last ")
                .append(Math.round(span / 60)).append(" minutes\" xmlns=\"http://www.w3.org/2000/svg\">");
        svg.append("<g class=\"grid\">");
        for (int pct = 0; pct <= 100; pct += 25) {
            double y = y(pct);
            svg.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(WIDTH - RIGHT).append("\" y1=\"")
                    .append(n(y)).append("\" y2=\"").append(n(y)).append("\"/><text x=\"").append(LEFT - 4)
                    .append("\" y=\"").append(n(y + 4)).append("\" text-anchor=\"end\">").append(pct)
                    .append("%</text>");
        }
        for (int i = 0; i <= 4; i++) {
            double ago = span * (4 - i) / 4;
            svg.append("<text x=\"").append(n(x.at(-ago))).append("\" y=\"").append(HEIGHT - 6)
                    .append("\" text-anchor=\"").append(i == 0 ? "start" : i == 4 ? "end" : "middle").append("\">")
                    .append(ago == 0 ? "now" : "-" + ago(ago)).append("</text>");
        }
        svg.append("</g><g id=\"chart-sessions\">");
        for (ProfileSummary p : s.profiles()) {
            session(svg, x, seconds(at, p.startedAt()), seconds(at, p.endedAt()));
        }
        SessionDescriptor running = s.session();
        if (running != null) {
            session(svg, x, seconds(at, running.startedAt()), 0);
        }
        svg.append("</g>");
        if (h != null && !h.baseline().isEmpty()) {
            StringBuilder d = new StringBuilder();
            for (double[] slot : h.baseline()) {
                d.append(d.length() == 0 ? "M" : "L").append(n(x.at(slot[0]))).append(' ').append(n(y(slot[2])))
                        .append("H").append(n(x.at(slot[1])));
            }
            svg.append("<path id=\"chart-baseline\" class=\"baseline\" d=\"").append(d).append("\"/>");
        } else {
            svg.append("<path id=\"chart-baseline\" class=\"baseline\" d=\"\"/>");
        }
        StringBuilder points = new StringBuilder();
        if (h != null) {
            for (double[] p : h.samples()) {
                points.append(n(x.at(p[0]))).append(',').append(n(y(p[1]))).append(' ');
            }
        }
        svg.append("<polyline id=\"chart-samples\" class=\"samples\" points=\"").append(points.toString().trim())
                .append("\"/>");
        double threshold = s.cpu().thresholdPercent();
        svg.append("<line id=\"chart-threshold\" class=\"threshold\" x1=\"").append(LEFT).append("\" x2=\"")
                .append(WIDTH - RIGHT).append("\" y1=\"").append(n(y(threshold))).append("\" y2=\"")
                .append(n(y(threshold))).append("\"/><text id=\"chart-threshold-label\" class=\"threshold-label\" x=\"")
                .append(LEFT + 4).append("\" y=\"").append(n(y(threshold) - 4))
                // At the left: the recent samples, at the right, would run through it.
                .append("\" text-anchor=\"start\">threshold ").append(n(threshold)).append("%</text>");
        return svg.append("</svg>").toString();
    }

    private static void session(StringBuilder svg, Scale x, double from, double to) {
        double x1 = x.at(from);
        double x2 = x.at(to);
        if (x2 <= LEFT) {
            return; // entirely before the chart
        }
        svg.append("<rect class=\"session\" x=\"").append(n(x1)).append("\" y=\"").append(TOP).append("\" width=\"")
                .append(n(Math.max(1, x2 - x1))).append("\" height=\"").append(HEIGHT - TOP - BOTTOM).append("\"/>");
    }

    /** The y of a percentage. */
    static double y(double percent) {
        double p = Math.max(0, Math.min(100, percent));
        return TOP + (HEIGHT - TOP - BOTTOM) * (1 - p / 100);
    }

    /** Maps seconds relative to now (0 or below) to x, clamped to the plot. */
    record Scale(double span) {

        double at(double seconds) {
            double v = LEFT + (WIDTH - LEFT - RIGHT) * (1 + seconds / span);
            return Math.max(LEFT, Math.min(WIDTH - RIGHT, v));
        }
    }

    private static String ago(double seconds) {
        return seconds >= 120 ? Math.round(seconds / 60) + " min" : Math.round(seconds) + " s";
    }

    private static double seconds(Instant at, String iso) {
        return iso == null ? 0 : Math.min(0, Duration.between(at, Instant.parse(iso)).toMillis() / 1000.0);
    }

    private static String n(double v) {
        String s = String.format(Locale.ROOT, "%.1f", v);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }
}
