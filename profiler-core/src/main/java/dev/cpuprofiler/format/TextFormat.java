package dev.cpuprofiler.format;

import dev.cpuprofiler.ConcurrencyReport;
import dev.cpuprofiler.CpuBreakdown;
import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.ThreadCpu;
import dev.cpuprofiler.internal.stack.HotMethods;
import dev.cpuprofiler.internal.stack.StackTree;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Why requests got slow, for a LATENCY profile, what changed from the reference of normal, when the profile is
 * compared ({@link WhatChangedText}), then a summary
 * (what recorded the profile, its samples and the share cut at the root, the hot methods, where the CPU
 * went, the look-back part, how many threads ran at once), then the tree as indented text.
 */
final class TextFormat extends FormatBase {

    private final TextTreeRenderer renderer = new TextTreeRenderer();

    TextFormat() {
        super("text", "text/plain;charset=UTF-8", ".txt");
    }

    @Override
    public void write(Profile profile, ProfileView view, OutputStream out) throws IOException {
        out.write((whySlow(profile.latency()) + WhatChangedText.of(view.comparison(profile)) + summary(profile, view))
                .getBytes(StandardCharsets.UTF_8));
        renderer.render(view.tree(profile), out);
    }

    /**
     * A LATENCY profile's first lines: each slow endpoint, its verdict and its top waits in words; nothing when no
     * endpoint is slow (a reference's durations are in the JSON).
     */
    static String whySlow(Profile.Latency latency) {
        if (latency == null || latency.endpoints().stream().allMatch(e -> e.verdict()
                == Profile.Latency.Verdict.UNCHANGED)) {
            return "";
        }
        StringBuilder b = new StringBuilder("Why requests got slow\n");
        List<String> calm = new java.util.ArrayList<>();
        for (Profile.Latency.EndpointLatency e : latency.endpoints()) {
            if (e.verdict() == Profile.Latency.Verdict.UNCHANGED) {
                calm.add(e.endpoint());
                continue;
            }
            b.append(String.format(Locale.ROOT, "  %s: %s. %d of %d requests slower than the cut; median %.0f ms, "
                    + "95th percentile %.0f ms%s; per request %s ms of CPU, %.1f ms recorded waiting\n", e.endpoint(),
                    words(e.verdict()), e.slowRequests(), e.requests(), e.p50Millis(), e.p95Millis(),
                    e.referenceP95Millis() == null ? "" : String.format(Locale.ROOT, " (normally %.0f ms)",
                            e.referenceP95Millis()), e.cpuMillisPerRequest() == null ? "unknown"
                            : String.format(Locale.ROOT, "%.1f", e.cpuMillisPerRequest()), e.waitMillisPerRequest()));
            e.waits().stream().limit(3).forEach(w -> b.append(String.format(Locale.ROOT,
                    "    waits %.1f ms per request on %s at %s\n", w.millisPerRequest(), kindWords(w.kind()),
                    w.frame())));
        }
        if (!calm.isEmpty()) {
            b.append("  Not slow: ").append(String.join(", ", calm)).append('\n');
        }
        return b.append('\n').toString();
    }

    private static String words(Profile.Latency.Verdict v) {
        return switch (v) {
            case CPU -> "slow by its CPU";
            case WAIT -> "slow by waiting";
            case BOTH -> "slow by CPU and waiting";
            case UNCHANGED -> "not slow";
        };
    }

    private static String kindWords(Profile.Latency.WaitKind k) {
        return switch (k) {
            case LOCK -> "a lock";
            case IO -> "I/O";
            case SLEEP -> "a sleep";
            case POOL -> "a pool or queue";
            case OTHER -> "another thread or task";
        };
    }

    /** The few lines above the tree: what recorded it, and what CPU% alone would hide. */
    static String summary(Profile p, ProfileView view) {
        StringBuilder b = new StringBuilder();
        Profile.Recording r = p.recording();
        b.append("Profile ").append(p.id()).append(" (").append(p.trigger()).append(")  ")
                .append(r.startedAt()).append(" .. ").append(r.endedAt()).append('\n');
        b.append("Engine: ").append(r.engine());
        if (r.engineDetail() != null && !r.engineDetail().isBlank()) {
            b.append(" (").append(r.engineDetail()).append(')');
        }
        b.append(", every ").append(r.samplingPeriod().toMillis()).append(" ms");
        if (p.cpu().percent() != null) {
            b.append(String.format(Locale.ROOT, ", CPU %.1f%% while recording", p.cpu().percent()));
        }
        b.append('\n');
        Profile.Saturation s = p.saturation();
        if (s != null) {
            b.append(String.format(Locale.ROOT, "Saturation: thread '%s' used %.1f%% of one core over %d s; ",
                    s.thread(), s.percentOfCore(), s.window().toSeconds())).append(s.thread().equals(view.thread())
                            ? "below, its own stacks (thread=all shows every thread's)\n"
                            : "thread=" + s.thread() + " shows its own stacks\n");
        } else if (view.thread() != null) {
            b.append("Thread: ").append(view.thread()).append(", its stacks alone below\n");
        }
        StackTreeSnapshot tree = view.fullTree(p);
        StackTree.RootCut cut = StackTree.RootCut.of(tree);
        // The session's samples, as the JSON, the log and the flame graph's title count them; what the view below
        // holds besides (the look-back's weighed samples) or instead (one thread's) is said apart.
        b.append(String.format(Locale.ROOT, "Samples: %d, %d (%.1f%%) cut at the root%s%s%n", r.samples(),
                cut.samples(), cut.percent(), cut.samples() > 0 ? " (their callers are unknown: see the notes)" : "",
                tree.totalSamples() == r.samples() ? "" : view.thread() != null ? "; " + tree.totalSamples()
                        + " of them below (thread " + view.thread() + ")" : view.lookback() == LookbackView.ONLY
                        ? "; the tree below holds the look-back's alone, weighing " + tree.totalSamples()
                        : "; the tree below weighs " + tree.totalSamples() + ", the look-back's samples included"));
        List<HotMethods.Method> hot = HotMethods.of(tree, HotMethods.DEFAULT_LIMIT);
        if (!hot.isEmpty()) {
            b.append("Hot methods (self time; total = samples through it):\n");
            for (HotMethods.Method h : hot) {
                b.append(String.format(Locale.ROOT, "  %6.2f%% self  %6.2f%% total  %8d  %s%n", h.selfPercent(),
                        h.totalPercent(), h.samples(), h.method()));
            }
        }
        CpuBreakdown breakdown = p.cpu().breakdown();
        if (breakdown != null) {
            b.append(String.format(Locale.ROOT, "Where the CPU went: %.1fs of process CPU time;",
                    breakdown.processCpuTime().toNanos() / 1e9));
            for (CpuBreakdown.Share g : breakdown.groups()) {
                b.append(String.format(Locale.ROOT, "  %s %.1f%%", g.group().id(), g.percent()));
            }
            b.append('\n');
        }
        for (Profile.EngineFallback f : r.fallbacks()) {
            b.append("Skipped ").append(f.engineId()).append(": ").append(f.reason()).append('\n');
        }
        for (String note : r.notes()) {
            b.append("Note: ").append(note).append('\n');
        }
        LookbackSnapshot l = p.lookback();
        if (l != null) {
            b.append("Look-back: ").append(l.samples()).append(" samples every ")
                    .append(l.samplingPeriod().toMillis()).append(" ms from ").append(l.startedAt()).append(" .. ")
                    .append(l.endedAt()).append(", before the session; ").append(switch (view.lookback()) {
                        case INCLUDE -> "included below (lookback=exclude leaves them out)";
                        case EXCLUDE -> "left out below (lookback=include adds them)";
                        case ONLY -> "only they are below";
                    }).append('\n');
            for (String note : l.notes()) {
                b.append("Look-back note: ").append(note).append('\n');
            }
        } else if (view.lookback() == LookbackView.ONLY) {
            b.append("Look-back: none in this profile\n");
        }
        ConcurrencyReport c = p.cpu().concurrency();
        if (c != null) {
            b.append(String.format(Locale.ROOT,
                    "Utilization %.0f%% of %.1f CPUs; bottleneck %.0f%% of the time at least one thread ran "
                            + "(between %.0f%% and %.0f%%)%n",
                    c.utilization() * 100, c.effectiveCpus(), c.bottleneck() * 100, c.bottleneckLow() * 100,
                    c.bottleneckHigh() * 100));
            b.append("Threads running at once:");
            for (ConcurrencyReport.Bin bin : c.histogram()) {
                b.append(String.format(Locale.ROOT, "  %d: %.1fs", bin.threads(), bin.seconds()));
            }
            b.append('\n');
            int shown = 0;
            for (ThreadCpu t : c.threads()) {
                if (shown++ == 10) {
                    break;
                }
                b.append(String.format(Locale.ROOT, "  %6.1f%% of a core  %-14s %s%n", t.cpuPercent(),
                        t.label(), t.name()));
            }
        }
        b.append('\n');
        return b.toString();
    }
}
