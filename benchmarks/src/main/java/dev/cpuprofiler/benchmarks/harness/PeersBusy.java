package dev.cpuprofiler.benchmarks.harness;

import static dev.cpuprofiler.benchmarks.harness.PeersSection.range;
import static dev.cpuprofiler.benchmarks.harness.PeersSection.spread;
import static dev.cpuprofiler.benchmarks.harness.Report.num;

import dev.cpuprofiler.fixtures.OpenLoopLoad;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The busy part of the peers section: the same fixed open-loop load ({@link OpenLoopLoad}) on each app in turn,
 * at a rate calibrated once on {@code none} to about 60% of the machine (above the starter's look-back arming level
 * of 48%, below its 80% trigger), rounds interleaved; plus the starter while an on-demand session records.
 */
final class PeersBusy {

    // Fixed CPU work a request (100 CpuKernel ops, 3-5 ms) with a few bytes of answer: the client in the same 2-CPU box
    // must not take the CPU the app needs to sit above the arming level (quotes of 500 items, 50 KB each at 2,300 a
    // second, held the app at 37% of the machine with the client's share and the drops it caused).
    static final String PATH = "/bench/endpoints/beta";
    static final double TARGET = 0.60;
    static final String SESSION = "ours, session recording";
    static final String RISE = "ours, first seconds of load (look-back armed by the rise)";
    /**
     * How long the ours app is under load before its measured window: its look-back arms on a rise above the CPU's
     * normal (the lowest 10-s mean of the last 2 minutes) and disarms one window (30 s) after that load is the normal,
     * so a service that stays busy is measured after 2.5 minutes and some margin. The other tools' cost does not
     * depend on what came before.
     */
    static final double OURS_STEADY_SECONDS = 170;

    /** One slot of a round: one configuration under load. */
    private record Slot(String label, PeerTool tool, boolean session) {
    }

    /** One measured window of one slot. */
    private record Window(double ms, double rps, double usPerRequest, double others, OpenLoopLoad.Counts counts,
            Map<PeerTool.Threads, Double> threads) {

        static Window measure(Ctx ctx, App app, OpenLoopLoad load, double seconds) throws InterruptedException {
            PeersSection.Snap a = PeersSection.Snap.of(app);
            OpenLoopLoad.Counts c0 = load.counts();
            long[] m0 = Proc.machineJiffies();
            Thread.sleep((long) (seconds * 1000));
            PeersSection.Snap b = PeersSection.Snap.of(app);
            OpenLoopLoad.Counts c = load.counts().minus(c0);
            Map<PeerTool.Threads, Double> threads = new LinkedHashMap<>();
            PeerTool.GROUPS.forEach(g -> threads.put(g, b.groupMsPerMinute(a, g)));
            return new Window(b.processMsPerMinute(a), c.answered() / (c.nanos() / 1e9),
                    (b.cpu() - a.cpu()) / 1e3 / Math.max(1, c.answered()),
                    Proc.externalPercent(m0, Proc.machineJiffies(), b.cpu() - a.cpu(), b.nanos() - a.nanos(),
                            ctx.cpus), c, threads);
        }
    }

    private PeersBusy() {
    }

    static void run(Ctx ctx, Map<PeerTool, App> apps, StringBuilder md) throws Exception {
        Settings.Peers p = ctx.settings.peers();
        App none = apps.get(PeerTool.NONE);
        double warm = Math.max(3, p.busyWarm());
        // Calibration on none (after a first warm-up of its own): its CPU cost per request and the rate that puts
        // it at TARGET of the machine, refined until it moves by less than 10% (at most 5 times); then a warm-up
        // pass at that rate on every app, none included, so that each has had its JIT compile the same path for as
        // long before the rounds.
        double rate = 300;
        try (OpenLoopLoad load = OpenLoopLoad.start(none.base + PATH, rate)) {
            Thread.sleep((long) (Math.max(5, p.warmPass() / 2) * 1000));
        }
        double perRequest = Double.NaN;
        for (int i = 0; i < 5; i++) { // until the rate moves by less than 10% (the JIT is still compiling before)
            try (OpenLoopLoad load = OpenLoopLoad.start(none.base + PATH, rate)) {
                Thread.sleep((long) (warm * 1000));
                PeersSection.Snap a = PeersSection.Snap.of(none);
                OpenLoopLoad.Counts c0 = load.counts();
                Thread.sleep((long) (Math.max(5, p.busySeconds() / 2) * 1000));
                PeersSection.Snap b = PeersSection.Snap.of(none);
                OpenLoopLoad.Counts c = load.counts().minus(c0);
                perRequest = (b.cpu() - a.cpu()) / (double) Math.max(1, c.answered());
                System.out.printf("[peers] calibration at %.0f req/s: %.0f µs CPU per request%n", rate, perRequest / 1e3);
            }
            double next = Math.max(20, Math.min(8000, TARGET * ctx.cpus * 1e9 / perRequest));
            boolean settled = Math.abs(next - rate) < 0.1 * rate;
            rate = next;
            if (settled) {
                break;
            }
        }
        System.out.printf("[peers] busy rate %.0f req/s; warm-up pass %.0f s per app%n", rate, p.warmPass());
        for (App app : apps.values()) {
            try (OpenLoopLoad load = OpenLoopLoad.start(app.base + PATH, rate)) {
                Thread.sleep((long) (p.warmPass() * 1000));
            }
        }
        List<Slot> slots = new ArrayList<>();
        List<Slot> rows = new ArrayList<>();
        Slot rise = new Slot(RISE, PeerTool.OURS, false);
        for (PeerTool t : apps.keySet()) {
            slots.add(new Slot(t.id, t, false));
            rows.add(slots.get(slots.size() - 1));
            if (t == PeerTool.OURS) {
                rows.add(rise);
                slots.add(new Slot(SESSION, t, true));
                rows.add(slots.get(slots.size() - 1));
            }
        }
        Map<String, List<Double>> rps = new LinkedHashMap<>();
        Map<String, List<Double>> usPerReq = new LinkedHashMap<>();
        Map<String, List<Double>> msMin = new LinkedHashMap<>();
        Map<String, List<Double>> above = new LinkedHashMap<>();
        Map<String, List<Double>> others = new LinkedHashMap<>();
        Map<String, long[]> errorsLate = new LinkedHashMap<>();
        Map<String, List<String>> notes = new LinkedHashMap<>();
        Map<String, Map<PeerTool.Threads, List<Double>>> threads = new LinkedHashMap<>();
        for (Slot s : rows) {
            rps.put(s.label(), new ArrayList<>());
            usPerReq.put(s.label(), new ArrayList<>());
            msMin.put(s.label(), new ArrayList<>());
            above.put(s.label(), new ArrayList<>());
            others.put(s.label(), new ArrayList<>());
            errorsLate.put(s.label(), new long[3]);
            notes.put(s.label(), new ArrayList<>());
            Map<PeerTool.Threads, List<Double>> g = new LinkedHashMap<>();
            PeerTool.GROUPS.forEach(x -> g.put(x, new ArrayList<>()));
            threads.put(s.label(), g);
        }
        for (int r = 0; r < p.busyRounds(); r++) {
            Map<String, Double> round = new LinkedHashMap<>();
            for (int k = 0; k < slots.size(); k++) {
                Slot s = slots.get((k + r) % slots.size()); // each round starts one slot later
                App app = apps.get(s.tool());
                if (s.session()) {
                    String d = Proc.fmt("%.0fs", warm + p.busySeconds() + 5);
                    Http.Response resp = Http.post(app.base + "/actuator/cpuprofiler?duration=" + d, null, 10);
                    if (resp.status() / 100 != 2) {
                        notes.get(s.label()).add("round " + (r + 1) + ": POST answered " + resp.status());
                    }
                }
                boolean steady = s.tool() == PeerTool.OURS && !s.session();
                try (OpenLoopLoad load = OpenLoopLoad.start(app.base + PATH, rate)) {
                    Thread.sleep((long) (warm * 1000));
                    List<Map.Entry<String, Window>> windows = new ArrayList<>();
                    if (steady) {
                        windows.add(Map.entry(RISE, Window.measure(ctx, app, load, p.busySeconds())));
                        notes.get(RISE).add("r" + (r + 1) + " " + LookbackProbe.of(app).state());
                        Thread.sleep((long) (Math.max(0, OURS_STEADY_SECONDS - warm - p.busySeconds()) * 1000));
                    }
                    windows.add(Map.entry(s.label(), Window.measure(ctx, app, load, p.busySeconds())));
                    for (Map.Entry<String, Window> e : windows) {
                        String l = e.getKey();
                        Window w = e.getValue();
                        others.get(l).add(w.others());
                        round.put(l, w.ms());
                        rps.get(l).add(w.rps());
                        usPerReq.get(l).add(w.usPerRequest());
                        msMin.get(l).add(w.ms());
                        errorsLate.get(l)[0] += w.counts().failed();
                        errorsLate.get(l)[1] += w.counts().dropped();
                        errorsLate.get(l)[2] += w.counts().late();
                        PeerTool.GROUPS.forEach(g -> threads.get(l).get(g).add(w.threads().get(g)));
                    }
                }
                if (s.tool() == PeerTool.OURS) {
                    notes.get(s.label()).add("r" + (r + 1) + " " + LookbackProbe.of(app).state());
                }
                System.out.printf("[peers] busy round %d %s: %.0f ms/min%n", r + 1, s.label(), round.get(s.label()));
            }
            double n = round.get(PeerTool.NONE.id);
            round.forEach((label, ms) -> above.get(label).add(ms - n));
        }

        md.append(Proc.fmt("### Busy%n%nAn open-loop client in the harness (`OpenLoopLoad`: requests leave at fixed "
                + "times whatever the answers do, 10-s timeout) sends `GET %s` at %.0f requests a second to one app at "
                + "a time: the rate meant to put `none` at about %.0f%% of the machine's %d CPUs (%.0f µs CPU a "
                + "request at the last calibration step; refined until the rate moved by less than 10%%, at most 5 "
                + "steps), above the starter's look-back arming level (48%%) and below its 80%% trigger. After the "
                + "calibration every app, none included, had a %.0f-s warm-up pass at that rate; then %d rounds, each "
                + "loading every configuration in turn for %.0f s of warm-up and %.0f s measured, the order shifted by one each round. *%s*: "
                + "`POST /actuator/cpuprofiler?duration=%.0fs` on the ours app just before its slot (once a round). "
                + "The ours slot keeps its load on for " + Proc.fmt("%.0f", OURS_STEADY_SECONDS) + " s before its "
                + "measured window: its look-back arms on a rise above the CPU's normal (the lowest 10-s mean of "
                + "the last 2 minutes), so load that starts after an idle spell arms it, and a service that stays "
                + "busy has it disarmed once that load is its normal and one 30-s window has passed; *" + RISE
                + "* is the same slot measured right after its warm-up, the cost of a rise. "
                + "Look-back: the ours app's `lookback.state` at the end of each of its slots (ARMED: the look-back "
                + "recorded during the slot). Others' CPU: the machine's busy time (/proc/stat) minus the app's, the "
                + "harness's own client included; late starts: requests the client sent more than 10 ms after their "
                + "scheduled time (it could not keep the schedule); dropped: requests due while " + OpenLoopLoad.DEFAULT_MAX_IN_FLIGHT
                + " were in flight, not sent (the client's cap, which keeps its connections bounded).%n%n", PATH, rate, TARGET * 100, ctx.cpus, perRequest / 1e3,
                p.warmPass(), p.busyRounds(), warm, p.busySeconds(), SESSION, warm + p.busySeconds() + 5));
        md.append("| configuration | completed requests/s | CPU µs per request | process CPU, ms a minute | above none, "
                + "ms a minute | others' CPU, % of the machine | failed / dropped / late starts | notes |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (Slot s : rows) {
            String l = s.label();
            md.append("| ").append(l).append(" | ").append(spread(rps.get(l), 0)).append(" | ")
                    .append(spread(usPerReq.get(l), 0)).append(" | ").append(spread(msMin.get(l), 0)).append(" | ")
                    .append(s.tool() == PeerTool.NONE ? "–" : spread(above.get(l), 0)).append(" | ")
                    .append(spread(others.get(l), 0)).append(" | ")
                    .append(errorsLate.get(l)[0]).append(" / ").append(errorsLate.get(l)[1]).append(" / ")
                    .append(errorsLate.get(l)[2]).append(" | ")
                    .append(String.join("; ", notes.get(l))).append(" |\n");
        }
        List<Double> ours = above.get(PeerTool.OURS.id);
        List<Double> pyro = above.getOrDefault(PeerTool.PYROSCOPE.id, List.of());
        double o = Stats.median(ours);
        double py = Stats.median(pyro);
        double noise = Math.max(range(ours), range(pyro));
        boolean noisy = !(Math.abs(py - o) > noise);
        md.append(Proc.fmt("%nOurs (monitoring) ÷ pyroscope, CPU above none: %s ms ÷ %s ms a minute = %s%s.%n",
                num(o, 0), num(py, 0), py > 0 ? num(o / py, 2) : "–", noisy ? " — too noisy to separate: the rounds' "
                        + "spread (" + num(noise, 0) + " ms) is wider than the difference" : ""));
        md.append("\nWhere the cost hides: the tools' own threads and the JIT compiler threads under load (schedstat, "
                + "ms CPU a minute, median of rounds; a signal-driven sampler such as async-profiler's runs its "
                + "handler on the sampled threads, which no thread here shows):\n\n| configuration |");
        PeerTool.GROUPS.forEach(g -> md.append(' ').append(g.label()).append(" |"));
        md.append("\n|---|").append("---|".repeat(PeerTool.GROUPS.size())).append('\n');
        for (Slot s : rows) {
            md.append("| ").append(s.label()).append(" |");
            PeerTool.GROUPS.forEach(g -> md.append(' ').append(num(Stats.median(threads.get(s.label()).get(g)), 1))
                    .append(" |"));
            md.append('\n');
        }
        md.append('\n');
        ctx.report.goal("Peers: busy above the arming level, ours ≤ pyroscope agent", "the starter's whole cost (process "
                        + "CPU above none, from outside) at most the Pyroscope agent's, same run",
                Proc.fmt("above none: ours %s, pyroscope %s ms/min (medians; spread up to %s ms)", spread(ours, 0),
                        spread(pyro, 0), num(noise, 0)),
                pyro.isEmpty() ? Report.Verdict.NOT_MEASURED : noisy ? Report.Verdict.UNCLEAR
                        : o <= py ? Report.Verdict.MET : Report.Verdict.MISSED,
                (noisy ? "too noisy to separate: the rounds' spread is wider than the difference; " : "")
                        + "open-loop load at " + num(rate, 0) + " req/s (" + PeersSection.COMMAND + ")");
        // The part that resolves: each tool's own threads, read from outside (schedstat, ns-exact).
        double oursThreads = ownThreads(threads.get(PeerTool.OURS.id), PeerTool.STARTER, PeerTool.JFR_THREADS);
        double pyroThreads = threads.containsKey(PeerTool.PYROSCOPE.id)
                ? ownThreads(threads.get(PeerTool.PYROSCOPE.id), PeerTool.PYRO, PeerTool.ASYNC) : Double.NaN;
        ctx.report.goal("Peers: busy above the arming level, own threads, ours ≤ pyroscope agent", "the starter's "
                        + "threads (`cpuprofiler-*` and JFR's) at most the Pyroscope agent's (its Java threads and "
                        + "async-profiler's), read from outside, same run",
                Proc.fmt("ours %s, pyroscope %s ms/min (medians of rounds)", num(oursThreads, 1),
                        num(pyroThreads, 1)),
                Double.isNaN(pyroThreads) ? Report.Verdict.NOT_MEASURED
                        : oursThreads <= pyroThreads ? Report.Verdict.MET : Report.Verdict.MISSED,
                "neither counts its work on the application's threads: Pyroscope's SIGPROF handler walking a stack "
                        + "100 times a CPU-second, the starter's request callbacks (about 130 ns a request while "
                        + "nothing records, its duration counted for the latency trigger, "
                        + "RequestAttributionBenchmark.idleCountingLatency: about 4 ms a minute at this rate)");
    }

    /** The median over rounds of the sum of these groups' CPU, ms a minute. */
    private static double ownThreads(Map<PeerTool.Threads, List<Double>> byGroup, PeerTool.Threads... groups) {
        int rounds = byGroup.get(groups[0]).size();
        List<Double> sums = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            double sum = 0;
            for (PeerTool.Threads g : groups) {
                sum += byGroup.get(g).get(r);
            }
            sums.add(sum);
        }
        return Stats.median(sums);
    }
}
