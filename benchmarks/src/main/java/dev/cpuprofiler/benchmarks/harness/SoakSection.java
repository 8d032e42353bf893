package dev.cpuprofiler.benchmarks.harness;

import static dev.cpuprofiler.benchmarks.harness.Report.num;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * Bounded memory over time: the benchmark app with everything on (monitoring, the CPU trigger with a low threshold
 * and a short cooldown, look-back, the endpoint with write access) under a modest load, a short on-demand session
 * every few seconds whose profile is then fetched in every format, for {@code soakMinutes}; every minute, after a
 * full GC, the heap in use, the resident set, the profiler's threads, open files and the bytes it keeps on disk.
 * Flat is the goal. Not a test: a leak shows as a slope, and the class histograms (one per reading) say which
 * objects pile up.
 *
 * <p>Each app gets its own {@code java.io.tmpdir} under the work directory, so the profiler's work directory
 * ({@code cpuprofiler-*}), JFR's repository (look-back's and the JFR engines' chunks) and whatever else lands there
 * can be measured. Heap readings come from outside, the live bytes counted by {@code jcmd <pid> GC.class_histogram}
 * right after its own full GC (nothing is added to the product for this); the heap is pre-touched ({@code -XX:+AlwaysPreTouch}), so the resident
 * set does not grow as the heap is first used and what it shows is native memory; native memory tracking
 * ({@code summary}) says where that went.
 */
final class SoakSection {

    /**
     * One soaked app: which JDK, whether async-profiler is on its classpath (engine {@code auto} then picks it), and
     * whether it writes each profile to an output directory (the writer and its retention are exercised too).
     */
    record AppSpec(String id, String label, boolean jdk25, boolean asyncProfiler, boolean outputDirectory) {
    }

    static final Map<String, AppSpec> APPS = new LinkedHashMap<>();

    static {
        APPS.put("jfr-execution", new AppSpec("jfr-execution", "starter only (JDK 17, engine `auto` → jfr-execution), "
                + "`output-directory` on (retention 20)", false, false, true));
        APPS.put("async-profiler", new AppSpec("async-profiler", "starter + `tools.profiler:async-profiler` on the "
                + "classpath (JDK 17, engine `auto` → async-profiler)", false, true, false));
        APPS.put("jfr-cpu-time", new AppSpec("jfr-cpu-time", "starter only on JDK 25 (engine `auto` → jfr-cpu-time)",
                true, false, false));
    }

    static final List<String> DEFAULT_APPS = List.of("jfr-execution", "async-profiler");

    /** On-demand sessions: this long, one started every {@link #PERIOD_SECONDS} (when none is running). */
    static final int SESSION_SECONDS = 2;
    static final double PERIOD_SECONDS = 5;
    static final String[] FORMATS = {"json", "text", "collapsed", "html"};
    static final JsonNode NO_STATUS = Http.JSON.createObjectNode();

    /** The CPU trigger fires whenever it may: a threshold the load clears, a short window and cooldown. */
    static final List<String> PROPS = List.of("profiler.enabled=true", "profiler.cpu.enabled=true",
            "profiler.cpu.threshold=10", "profiler.cpu.cooldown=30s", "profiler.cpu.duration=3s",
            "profiler.cpu.rolling-history-interval=5s", "profiler.cpu.average-window=10s",
            "profiler.cpu.rolling-history-size=60s", "profiler.cpu.polling-interval=2s",
            "profiler.cpu.lookback=20s");

    /** Flat: heap after GC and RSS slopes over the second half below these, in MB per 10 minutes. */
    static final double HEAP_FLAT = 2;
    static final double RSS_FLAT = 5;

    /** JDK 17: {@code total 524288K, used 55790K}; JDK 25: {@code total reserved 524288K, committed 524288K, used …}. */
    private static final Pattern HEAP_USED = Pattern.compile("heap\\s+total [^\\n]*?used (\\d+)K");
    /** {@code VM.metaspace basic}, where {@code GC.heap_info} has no metaspace line (JDK 25). */
    private static final Pattern METASPACE_BOTH = Pattern.compile("Both:\\s+([\\d.]+) MB used");
    private static final Pattern METASPACE_USED = Pattern.compile("Metaspace\\s+used (\\d+)K");
    private static final Pattern NMT_TOTAL = Pattern.compile("Total: reserved=\\d+KB(?: [+-]\\d+KB)?, "
            + "committed=(\\d+)KB(?: ([+-]\\d+)KB)?");
    private static final Pattern NMT_CATEGORY = Pattern.compile("^-\\s+(.+?) \\(reserved=\\d+KB(?: [+-]\\d+KB)?, "
            + "committed=(\\d+)KB(?: ([+-]\\d+)KB)?\\)");
    private static final Pattern HISTOGRAM_TOTAL = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)");
    private static final Pattern HISTO_LINE = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");
    private static final Pattern JFR_REPOSITORY = Pattern.compile("\\d{4}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_\\d+");
    private static final Pattern JFR_RECORDING = Pattern.compile("(?m)^Recording \\d+:");

    private SoakSection() {
    }

    /** One reading of one app. {@code minute} is the time since the soak's start (negative: before warm-up). */
    record Row(String label, double minute, long heapKb, long heapUsedKb, long metaspaceKb, long rssKb, long rssAnonKb,
            long rssFileKb, long nmtCommittedKb,
            long profilerThreads, long threads, long fds, long workDirBytes, long jfrRepoBytes, long otherTmpBytes,
            long outFiles, long outBytes, long lookbackBytes, String lookbackState, int jfrRecordings, int retained,
            long manual, long cpu, long errors, String note) {
    }

    /** One app being soaked: the app, its driver and load threads, its counters and its readings. */
    static final class Soaked implements AutoCloseable {
        final AppSpec spec;
        final App app;
        final Path tmp;
        final Path out;
        final String jcmd;
        final Path dir;
        final AtomicLong manual = new AtomicLong();
        final AtomicLong cpu = new AtomicLong();
        final AtomicLong cpuWithLookback = new AtomicLong();
        final AtomicLong busy = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final AtomicLong statusFailures = new AtomicLong();
        final AtomicLong fetches = new AtomicLong();
        final AtomicLong fetchedBytes = new AtomicLong();
        final AtomicLong loadRequests = new AtomicLong();
        final AtomicLong loadErrors = new AtomicLong();
        final Map<String, Long> errorKinds = Collections.synchronizedMap(new LinkedHashMap<>());
        final Map<String, Long> engines = new ConcurrentHashMap<>();
        final Set<String> seen = ConcurrentHashMap.newKeySet();
        final AtomicLong emptyProfiles = new AtomicLong();
        /** Held by the driver while its session is in flight: readings are taken between sessions. */
        final ReentrantLock quiet = new ReentrantLock();
        final List<Row> rows = new ArrayList<>();
        volatile boolean stop;
        private Thread driver;
        private Thread load;
        long cpuNanos0;
        long wall0;
        Map<String, Long> fdsStart = Map.of();
        Map<String, Long> fdsEnd = Map.of();
        double cpuPercent = Double.NaN;
        /** Why the app is gone, if it died during the soak. */
        String died;

        Soaked(AppSpec spec, App app, Path tmp, Path out, String jcmd, Path dir) {
            this.spec = spec;
            this.app = app;
            this.tmp = tmp;
            this.out = out;
            this.jcmd = jcmd;
            this.dir = dir;
        }

        void startTraffic() {
            driver = new Thread(this::drive, "soak-driver-" + spec.id());
            load = new Thread(this::load, "soak-load-" + spec.id());
            driver.setDaemon(true);
            load.setDaemon(true);
            driver.start();
            load.start();
        }

        void error(String kind) {
            if (stop) {
                return; // a round cut short by the end of the soak
            }
            errors.incrementAndGet();
            String k = kind.length() > 160 ? kind.substring(0, 160) + "…" : kind;
            errorKinds.merge(k.replace('\n', ' ').replace("|", "\\|"), 1L, Long::sum);
            System.out.printf("[soak] %s: error: %s%n", spec.id(), k);
        }

        /** A session every {@link #PERIOD_SECONDS}: start it, wait for its end, fetch it every way. */
        private void drive() {
            int round = 0;
            while (!stop) {
                long t0 = System.nanoTime();
                round++;
                quiet.lock();
                try {
                    oneSession(round);
                } catch (Exception e) {
                    if (!stop) {
                        error("session round: " + e);
                    }
                } finally {
                    quiet.unlock();
                }
                sleepUntil(t0 + (long) (PERIOD_SECONDS * 1e9));
            }
        }

        private void sleepUntil(long nanoTime) {
            long ms = (nanoTime - System.nanoTime()) / 1_000_000;
            if (ms > 0 && !stop) {
                try {
                    Thread.sleep(ms);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stop = true;
                }
            }
        }

        private void oneSession(int round) throws IOException, InterruptedException {
            String id = null;
            for (int attempt = 0; attempt < 40 && !stop && id == null; attempt++) {
                Http.Response r = Http.post(app.base + "/actuator/cpuprofiler",
                        "{\"duration\":\"" + SESSION_SECONDS + "s\"}", 30);
                if (r.status() == 200) {
                    id = r.json().path("id").asString("");
                } else if (r.status() == 429) { // a CPU-triggered session is recording: wait for it
                    busy.incrementAndGet();
                    Thread.sleep(1000);
                } else {
                    error("POST /actuator/cpuprofiler answered " + r.status() + ": " + r.body());
                    return;
                }
            }
            if (id == null) {
                if (!stop) {
                    error("no session could start in 40 attempts (429 every time)");
                }
                return;
            }
            JsonNode status = awaitEnd(id, SESSION_SECONDS + 30);
            if (status == null) {
                error("session " + id + " did not end within " + (SESSION_SECONDS + 30) + " s");
                return;
            }
            boolean stored = false;
            boolean empty = false;
            for (String format : FORMATS) {
                Http.Response r = fetch("/actuator/cpuprofiler/" + id + "?format=" + format);
                if (r.status() == 404 && format.equals("json")) {
                    Thread.sleep(500); // its end is recorded a moment after the status says so
                    r = fetch("/actuator/cpuprofiler/" + id + "?format=" + format);
                }
                if (r.status() != 200 || (r.body().isEmpty() && !empty)) { // an empty profile renders as nothing
                    error("GET profile ?format=" + format + " answered " + r.status()
                            + (r.status() == 404 ? " (the session left no profile)" : ""));
                    if (format.equals("json")) {
                        break;
                    }
                } else if (format.equals("json")) {
                    stored = true;
                    if (r.json().path("samples").asLong(-1) == 0) {
                        emptyProfiles.incrementAndGet();
                        empty = true;
                    }
                }
            }
            if (stored) {
                manual.incrementAndGet();
            }
            if (round % 5 == 0) {
                Http.Response r = fetch("/actuator/cpuprofiler/latest?format=json&lookback=exclude");
                if (r.status() != 200) {
                    error("GET latest answered " + r.status());
                }
            }
            if (status != NO_STATUS) {
                scanProfiles(status);
            }
        }

        private Http.Response fetch(String path) throws IOException, InterruptedException {
            Http.Response r = Http.get(app.base + path, 60);
            fetches.incrementAndGet();
            fetchedBytes.addAndGet(r.body().length());
            return r;
        }

        /**
         * Polls the status until the session has ended. Returns the last status, {@link #NO_STATUS} when the session
         * ended but the status failed (then the profile itself says it ended), or null on timeout.
         */
        private JsonNode awaitEnd(String id, double seconds) throws IOException, InterruptedException {
            long deadline = System.nanoTime() + (long) (seconds * 1e9);
            boolean failed = false;
            while (System.nanoTime() < deadline && !stop) {
                Thread.sleep(250);
                Http.Response r = fetch("/actuator/cpuprofiler");
                if (r.status() != 200) {
                    statusFailures.incrementAndGet();
                    if (!failed) { // once per round: the rest of the round says the same
                        error("GET /actuator/cpuprofiler answered " + r.status() + " (see the app's log)");
                        failed = true;
                    }
                    if (fetch("/actuator/cpuprofiler/" + id + "?format=json").status() == 200) {
                        return NO_STATUS; // stored, so ended
                    }
                    continue;
                }
                JsonNode status = r.json();
                JsonNode session = status.path("session");
                if (session.isNull() || session.isMissingNode() || !id.equals(session.path("id").asString(""))) {
                    return status;
                }
            }
            return null;
        }

        /** Counts the CPU-triggered profiles the status lists, and fetches each new one in its look-back views. */
        private void scanProfiles(JsonNode status) throws IOException, InterruptedException {
            for (JsonNode p : status.path("profiles")) {
                String id = p.path("id").asString("");
                if (id.isEmpty() || !seen.add(id)) {
                    continue;
                }
                engines.merge(p.path("engine").asString("?"), 1L, Long::sum);
                if (!"CPU".equals(p.path("trigger").asString(""))) {
                    continue;
                }
                cpu.incrementAndGet();
                Http.Response json = fetch("/actuator/cpuprofiler/" + id + "?format=json");
                if (json.status() != 200) {
                    error("GET CPU profile answered " + json.status());
                    continue;
                }
                JsonNode lb = json.json().path("lookback");
                if (!lb.isNull() && !lb.isMissingNode()) {
                    cpuWithLookback.incrementAndGet();
                    for (String view : List.of("only&format=html", "exclude&format=collapsed", "only&format=text")) {
                        Http.Response r = fetch("/actuator/cpuprofiler/" + id + "?lookback=" + view);
                        if (r.status() != 200) {
                            error("GET CPU profile lookback=" + view + " answered " + r.status());
                        }
                    }
                }
            }
        }

        /**
         * A modest load: every 4 s, one thread of the CPU-bound kernel for 1.5 s (up to 37% of one core: over the
         * trigger's 10%), and JSON quotes at about 20 per second the rest of the time. {@code /bench/cpu} starts a
         * new thread per call, so the per-thread tracking sees threads come and go, as in real applications.
         */
        private void load() {
            while (!stop) {
                try {
                    Http.Response r = Http.post(app.base + "/bench/cpu?threads=1&seconds=1.5", null, 30);
                    loadRequests.incrementAndGet();
                    if (r.status() != 200) {
                        loadErrors.incrementAndGet();
                    }
                    long until = System.nanoTime() + 2_500_000_000L;
                    while (System.nanoTime() < until && !stop) {
                        Http.Response q = Http.get(app.base + "/api/quote?items=20", 10);
                        loadRequests.incrementAndGet();
                        if (q.status() != 200) {
                            loadErrors.incrementAndGet();
                        }
                        Thread.sleep(50);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (Exception e) {
                    loadErrors.incrementAndGet();
                    if (!stop) {
                        try {
                            Thread.sleep(1000);
                        } catch (InterruptedException ie) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                }
            }
        }

        void stopTraffic() throws InterruptedException {
            stop = true;
            for (Thread t : new Thread[] {driver, load}) {
                if (t != null) {
                    t.join(60_000);
                }
            }
        }

        @Override
        public void close() {
            stop = true;
            app.close();
        }
    }

    static void run(Ctx ctx, List<String> appIds) throws Exception {
        Settings s = ctx.settings;
        List<AppSpec> specs = new ArrayList<>();
        for (String id : appIds) {
            AppSpec spec = APPS.get(id);
            if (spec.jdk25() && ctx.jvms.java25 == null) {
                ctx.report.problem("soak " + id + " skipped: " + ctx.jvms.java25Missing);
            } else if (spec.asyncProfiler() && ctx.jvms.asyncProfilerJar == null) {
                ctx.report.problem("soak " + id + " skipped: the async-profiler jar is not on the harness's classpath");
            } else {
                specs.add(spec);
            }
        }
        if (specs.isEmpty()) {
            ctx.report.problem("soak: no app to run");
            return;
        }
        List<Soaked> apps = new ArrayList<>();
        String load = Proc.loadAverage();
        long t0;
        try {
            for (AppSpec spec : specs) {
                apps.add(start(ctx, spec));
            }
            for (Soaked a : apps) {
                a.rows.add(measure(a, "ready", Double.NaN, null));
            }
            for (Soaked a : apps) {
                a.startTraffic();
            }
            System.out.printf("[soak] %s: warming up for %.0f s (sessions every %.0f s, load, CPU trigger)%n",
                    specs.stream().map(AppSpec::id).toList(), s.soakWarmup(), PERIOD_SECONDS);
            Thread.sleep((long) (s.soakWarmup() * 1000));
            t0 = System.nanoTime();
            for (int k = 0; k <= s.soakMinutes(); k++) {
                long at = t0 + k * 60_000_000_000L;
                long wait = (at - System.nanoTime()) / 1_000_000;
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                for (Soaked a : apps) {
                    if (a.died != null) {
                        continue;
                    }
                    if (!a.app.child.alive()) { // reported, not thrown: the other apps and the readings so far count
                        a.died = Proc.fmt("died before minute %d (log %s): %s", k, a.app.child.log,
                                a.app.child.tail(5).replace('\n', ' ').replace("|", "\\|"));
                        a.stop = true;
                        System.out.printf("[soak] %s %s%n", a.spec.id(), a.died);
                        ctx.report.problem("soak " + a.spec.id() + " " + a.died);
                        continue;
                    }
                    double minute = (System.nanoTime() - t0) / 60e9;
                    if (k == 0) {
                        a.cpuNanos0 = Proc.cpuNanos(a.app.pid());
                        a.wall0 = System.nanoTime();
                    }
                    boolean last = k == s.soakMinutes();
                    Row row;
                    try {
                        row = measure(a, k == 0 ? "start" : Integer.toString(k), minute, k == 0 ? () -> {
                            jcmd(a, "VM.native_memory", "baseline");
                            a.fdsStart = processFds(a, "fds-start.txt");
                        } : last ? () -> {
                            jcmdTo(a, "VM.native_memory summary.diff", a.dir.resolve("nmt-diff.txt"));
                            a.fdsEnd = processFds(a, "fds-end.txt");
                        } : null);
                    } catch (IOException | RuntimeException e) { // a reading that failed is left out, and said
                        ctx.report.problem("soak " + a.spec.id() + ": the reading at minute " + k + " failed: " + e);
                        continue;
                    }
                    a.rows.add(row);
                    if (last) {
                        a.cpuPercent = 100.0 * (Proc.cpuNanos(a.app.pid()) - a.cpuNanos0)
                                / (double) (System.nanoTime() - a.wall0);
                    }
                    System.out.printf("[soak] %s min %s: heap after GC %s MB, RSS %s MB, profiler threads %d/%d, "
                            + "fds %d, work dir %s KB, JFR repo %s KB, sessions %d + %d CPU, errors %d%n",
                            a.spec.id(), row.label(), num(row.heapKb() / 1024.0, 1), num(row.rssKb() / 1024.0, 1),
                            row.profilerThreads(), row.threads(), row.fds(), num(row.workDirBytes() / 1024.0, 0),
                            num(row.jfrRepoBytes() / 1024.0, 0), row.manual(), row.cpu(), row.errors());
                }
            }
            List<String> sections = new ArrayList<>();
            for (Soaked a : apps) {
                a.stopTraffic();
            }
            for (Soaked a : apps) {
                writeCsv(a);
                sections.add(render(ctx, a, a.cpuPercent));
            }
            StringBuilder md = new StringBuilder("## Soak: bounded memory over time\n\n");
            md.append(Proc.fmt("%d minutes (after %.0f s of the same traffic as warm-up), %d app%s on "
                    + "JDK %s; load average before: %s. ", s.soakMinutes(), s.soakWarmup(), apps.size(),
                    apps.size() == 1 ? "" : "s side by side",
                    String.join(" and ", apps.stream().map(a -> a.spec.jdk25() ? "25" : "17").distinct().toList()),
                    load));
            md.append(describe());
            for (String sec : sections) {
                md.append(sec);
            }
            ctx.report.section(md.toString());
        } finally {
            for (Soaked a : apps) {
                a.close();
            }
        }
    }

    private static String describe() {
        return Proc.fmt("Each app is the benchmark app with `%s`, the endpoint exposed with write access, "
                + "`-Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:NativeMemoryTracking=summary` and its own "
                + "`-Djava.io.tmpdir`. Traffic: every %.0f s an on-demand %d s session (`POST /actuator/cpuprofiler`; "
                + "on 429, while a CPU-triggered session records, it waits 1 s and asks again), then its profile as "
                + "%s, the status every 250 ms meanwhile, `latest` every 5th round, and every new CPU-triggered "
                + "profile in its look-back views; meanwhile a modest load (every 4 s one thread of the CPU kernel "
                + "for 1.5 s, up to 37%% of one core, and ~20 JSON quotes per second otherwise), which keeps the "
                + "CPU trigger (threshold 10%%, 10 s window, cooldown 30 s) firing whenever it may.%n%n"
                + "Every minute, between two of the driver's sessions (and after a CPU-triggered one has ended): "
                + "the heap after a full GC (the live bytes `jcmd <pid> GC.class_histogram` counts in its own full "
                + "GC's safepoint; `GC.heap_info`'s used, a moment later, is in the CSV), the resident set (`VmRSS`), NMT's "
                + "committed total, the profiler's threads (`cpuprofiler-*` in `/proc/<pid>/task/*/comm`) and all "
                + "threads, open descriptors (`/proc/<pid>/fd`), the bytes under the tmpdir's `cpuprofiler-*` work "
                + "directory, under JFR's repository (`<tmpdir>/<date>_<pid>`) and the rest of the tmpdir (Tomcat's), "
                + "the output directory, the look-back ring's own estimate (status `lookback.footprintBytes`), the "
                + "JVM's JFR recordings (`JFR.check`), the store's retained profiles. Flat: heap after GC below "
                + "%.0f MB and RSS below %.0f MB per 10 minutes over the second half (least-squares slope); threads, "
                + "descriptors and files never above the first half's highest (+4 descriptors, +1 MB of files for "
                + "noise: a reading may catch a file being written).%n%n",
                String.join(" ", PROPS).replace("profiler.", "--profiler."), PERIOD_SECONDS, SESSION_SECONDS,
                String.join(", ", FORMATS), HEAP_FLAT, RSS_FLAT);
    }

    private static Soaked start(Ctx ctx, AppSpec spec) throws IOException, InterruptedException {
        Path dir = ctx.work.resolve("soak-" + spec.id());
        Path tmp = dir.resolve("tmp");
        Path out = dir.resolve("profiles");
        Files.createDirectories(tmp);
        List<String> flags = List.of("-XX:+AlwaysPreTouch", "-XX:NativeMemoryTracking=summary",
                "-Djava.io.tmpdir=" + tmp);
        List<String> props = new ArrayList<>(PROPS);
        if (spec.outputDirectory()) {
            props.add("profiler.cpu.output-directory=" + out);
            props.add("profiler.cpu.output-retention=20");
        }
        String java = spec.jdk25() ? ctx.jvms.java25 : ctx.jvms.java;
        String jcmd = Path.of(java).getParent().resolve("jcmd").toString();
        App app = App.start(ctx, "soak-" + spec.id(), spec.jdk25(), spec.asyncProfiler(), flags, props);
        System.out.printf("[soak] %s started (pid %d, %.1f s)%n", spec.id(), app.pid(), app.startupSeconds);
        return new Soaked(spec, app, tmp, out, jcmd, dir);
    }

    /** Work done with the reading, under the same lock (histograms, NMT). */
    private interface Extra {
        void run() throws IOException, InterruptedException;
    }

    /** One reading, between two sessions of the driver; then {@code extra}, if any, still between them. */
    private static Row measure(Soaked a, String label, double minute, Extra extra) throws Exception {
        boolean locked = a.quiet.tryLock(90, TimeUnit.SECONDS);
        try {
            Row row = null;
            // A CPU-triggered session may start at any moment: a reading it overlapped is taken again.
            for (int attempt = 1; attempt <= 3; attempt++) {
                long deadline = System.nanoTime() + 20_000_000_000L;
                JsonNode status = status(a);
                while (busy(a, status) && System.nanoTime() < deadline) {
                    Thread.sleep(250);
                    status = status(a);
                }
                String note = !locked ? "taken during a session (the driver held on)"
                        : busy(a, status) ? "taken during a session" : "";
                row = read(a, label, minute, status, note);
                JsonNode after = status(a);
                if (!busy(a, after) && (status == null || after == null
                        || latestId(after).equals(latestId(status)))) {
                    break;
                }
                System.out.printf("[soak] %s: a session overlapped the reading, taking it again%n", a.spec.id());
            }
            if (extra != null) {
                extra.run();
            }
            return row;
        } finally {
            if (locked) {
                a.quiet.unlock();
            }
        }
    }

    private static boolean running(JsonNode status) {
        return status != null && !status.path("session").isNull() && !status.path("session").isMissingNode();
    }

    /**
     * Whether a session is in flight: the status says so, or one of its threads is alive (a session runs on a
     * {@code cpuprofiler-session} thread of its own, with a {@code cpuprofiler-concurrency} sampler, both gone when
     * it has stored its profile). The threads also answer when the status itself fails.
     */
    private static boolean busy(Soaked a, JsonNode status) {
        return running(status) || threadsNamed(a.app.pid(), "cpuprofiler-ses", "cpuprofiler-con") > 0;
    }

    private static long threadsNamed(long pid, String... prefixes) {
        long n = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String comm = Files.readString(task.resolve("comm"));
                    for (String p : prefixes) {
                        if (comm.startsWith(p)) {
                            n++;
                            break;
                        }
                    }
                } catch (IOException e) {
                    // ended meanwhile
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return n;
    }

    private static String latestId(JsonNode status) {
        return status.path("latestProfile").path("id").asString("");
    }

    /** The reading itself: a full GC, then the heap, native memory, threads, descriptors, files. */
    private static Row read(Soaked a, String label, double minute, JsonNode status, String note)
            throws IOException, InterruptedException {
        long pid = a.app.pid();
        // GC.class_histogram runs a full GC and counts the live objects in the same safepoint: its total is the heap
        // after GC, with nothing allocated since (GC.run and then GC.heap_info, two attaches apart, count what the
        // app allocated in between). Every reading's histogram is kept, to see what any reading held.
        String histo = jcmd(a, "GC.class_histogram");
        Files.createDirectories(a.dir.resolve("histograms"));
        Files.writeString(histogramFile(a, label), histo);
        String heap = jcmd(a, "GC.heap_info");
        String nmt = jcmd(a, "VM.native_memory", "summary");
        String jfr = jcmd(a, "JFR.check");
        long heapKb = group(HISTOGRAM_TOTAL, histo) / 1024;
        long heapUsedKb = group(HEAP_USED, heap);
        long metaKb = group(METASPACE_USED, heap);
        if (metaKb < 0) {
            String meta = jcmd(a, "VM.metaspace", "basic");
            metaKb = group(METASPACE_USED, meta);
            Matcher both = METASPACE_BOTH.matcher(meta);
            if (metaKb < 0 && both.find()) {
                metaKb = Math.round(Double.parseDouble(both.group(1)) * 1024);
            }
        }
        long nmtKb = group(NMT_TOTAL, nmt);
        long[] threads = threads(pid);
        long fds = count(Path.of("/proc", Long.toString(pid), "fd"));
        long work = 0;
        long repo = 0;
        long other = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(a.tmp)) {
            for (Path e : entries) {
                String name = e.getFileName().toString();
                long size = bytes(e);
                if (name.startsWith("cpuprofiler-")) {
                    work += size;
                } else if (JFR_REPOSITORY.matcher(name).matches()) {
                    repo += size;
                } else {
                    other += size;
                }
            }
        }
        long outFiles = Files.isDirectory(a.out) ? count(a.out) : 0;
        long outBytes = Files.isDirectory(a.out) ? bytes(a.out) : 0;
        JsonNode lb = status == null ? null : status.path("lookback");
        long lbBytes = lb == null ? -1 : lb.path("footprintBytes").asLong(-1);
        String lbState = lb == null ? "?" : lb.path("state").asString("?");
        int retained = status == null ? -1 : status.path("profiles").size();
        int recordings = jfr.contains("No available recordings") ? 0 : countMatches(JFR_RECORDING, jfr);
        long[] rss = rss(pid);
        return new Row(label, minute, heapKb, heapUsedKb, metaKb, rss[0], rss[1], rss[2], nmtKb, threads[0],
                threads[1], fds, work, repo, other, outFiles, outBytes, lbBytes, lbState, recordings, retained,
                a.manual.get(), a.cpu.get(), a.errors.get(), note);
    }

    /** {@code VmRSS}, {@code RssAnon} and {@code RssFile} + {@code RssShmem} of {@code /proc/<pid>/status}, in KB. */
    private static long[] rss(long pid) {
        long[] out = {-1, -1, 0};
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                long kb = line.matches("^(VmRSS|RssAnon|RssFile|RssShmem):.*") ? Long.parseLong(line.replaceAll("\\D", ""))
                        : -1;
                if (line.startsWith("VmRSS:")) {
                    out[0] = kb;
                } else if (line.startsWith("RssAnon:")) {
                    out[1] = kb;
                } else if (line.startsWith("RssFile:") || line.startsWith("RssShmem:")) {
                    out[2] += kb;
                }
            }
        } catch (IOException | RuntimeException e) {
            // process gone
        }
        return out;
    }

    private static JsonNode status(Soaked a) {
        try {
            Http.Response r = Http.get(a.app.base + "/actuator/cpuprofiler", 30);
            return r.status() == 200 ? r.json() : null;
        } catch (Exception e) {
            return null;
        }
    }

    /** Profiler threads ({@code cpuprofiler-*}) and all threads of the process. */
    private static long[] threads(long pid) {
        long profiler = 0;
        long all = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    all++;
                    if (Files.readString(task.resolve("comm")).startsWith("cpuprofiler-")) {
                        profiler++;
                    }
                } catch (IOException e) {
                    // ended meanwhile
                }
            }
        } catch (IOException e) {
            return new long[] {-1, -1};
        }
        return new long[] {profiler, all};
    }

    /** The process's open descriptors by kind (socket, pipe, anon_inode, jar, tmpdir file, other file), to a file. */
    private static Map<String, Long> processFds(Soaked a, String file) {
        Map<String, Long> kinds = new TreeMap<>();
        List<String> lines = new ArrayList<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(a.app.pid()), "fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    lines.add(fd.getFileName() + " -> " + target);
                    String kind = target.startsWith("socket:") ? "socket" : target.startsWith("pipe:") ? "pipe"
                            : target.startsWith("anon_inode:") ? target : target.endsWith(".jar") ? "jar"
                            : target.startsWith(a.tmp.toString()) ? "tmpdir file"
                            : target.startsWith(a.out.toString()) ? "output file" : "other file";
                    kinds.merge(kind, 1L, Long::sum);
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
            Files.write(a.dir.resolve(file), lines);
        } catch (IOException e) {
            // process gone
        }
        return kinds;
    }

    private static long count(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        } catch (IOException e) {
            return -1;
        }
    }

    /** Bytes of the regular files under {@code p} (files may vanish while we walk). */
    private static long bytes(Path p) {
        if (!Files.isDirectory(p)) {
            try {
                return Files.size(p);
            } catch (IOException e) {
                return 0;
            }
        }
        long sum = 0;
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path f : (Iterable<Path>) walk::iterator) {
                try {
                    if (Files.isRegularFile(f)) {
                        sum += Files.size(f);
                    }
                } catch (IOException e) {
                    // gone meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone meanwhile
        }
        return sum;
    }

    private static long group(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static int countMatches(Pattern p, String text) {
        Matcher m = p.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static String jcmd(Soaked a, String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(a.jcmd, Long.toString(a.app.pid())));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] outBytes;
        try (var in = p.getInputStream()) {
            outBytes = in.readAllBytes();
        }
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("jcmd " + String.join(" ", command) + " did not finish");
        }
        return new String(outBytes);
    }

    private static void jcmdTo(Soaked a, String command, Path file) throws IOException, InterruptedException {
        Files.writeString(file, jcmd(a, command.split(" ")));
    }

    private static void writeCsv(Soaked a) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("label,minute,heap_after_gc_kb,heap_info_used_kb,metaspace_kb,rss_kb,rss_anon_kb,rss_file_kb,nmt_committed_kb,profiler_threads,threads,fds,"
                + "work_dir_bytes,jfr_repo_bytes,other_tmp_bytes,out_files,out_bytes,lookback_bytes,lookback_state,"
                + "jfr_recordings,retained,manual,cpu,errors,note");
        for (Row r : a.rows) {
            lines.add(String.join(",", r.label(), num(r.minute(), 3), "" + r.heapKb(), "" + r.heapUsedKb(),
                    "" + r.metaspaceKb(),
                    "" + r.rssKb(), "" + r.rssAnonKb(), "" + r.rssFileKb(), "" + r.nmtCommittedKb(), "" + r.profilerThreads(), "" + r.threads(), "" + r.fds(),
                    "" + r.workDirBytes(), "" + r.jfrRepoBytes(), "" + r.otherTmpBytes(), "" + r.outFiles(),
                    "" + r.outBytes(), "" + r.lookbackBytes(), r.lookbackState(), "" + r.jfrRecordings(),
                    "" + r.retained(), "" + r.manual(), "" + r.cpu(), "" + r.errors(), r.note().replace(',', ';')));
        }
        Files.write(a.dir.resolve("soak.csv"), lines);
    }

    /** Least-squares slope of {@code value} over {@code minute}, in units per 10 minutes; NaN with < 2 points. */
    static double slopePer10(List<Row> rows, java.util.function.ToDoubleFunction<Row> value) {
        int n = rows.size();
        if (n < 2) {
            return Double.NaN;
        }
        double mx = 0;
        double my = 0;
        for (Row r : rows) {
            mx += r.minute();
            my += value.applyAsDouble(r);
        }
        mx /= n;
        my /= n;
        double sxy = 0;
        double sxx = 0;
        for (Row r : rows) {
            sxy += (r.minute() - mx) * (value.applyAsDouble(r) - my);
            sxx += (r.minute() - mx) * (r.minute() - mx);
        }
        return sxx == 0 ? Double.NaN : 10 * sxy / sxx;
    }

    private static double max(List<Row> rows, java.util.function.ToDoubleFunction<Row> value) {
        return rows.stream().mapToDouble(value).max().orElse(Double.NaN);
    }

    private static String render(Ctx ctx, Soaked a, double cpuPercent) throws IOException {
        int minutes = ctx.settings.soakMinutes();
        List<Row> timed = a.rows.stream().filter(r -> !Double.isNaN(r.minute())).toList();
        List<Row> firstHalf = timed.stream().filter(r -> r.minute() < minutes / 2.0).toList();
        List<Row> secondHalf = timed.stream().filter(r -> r.minute() >= minutes / 2.0).toList();
        // Counts of threads, descriptors and files are judged on readings between sessions only.
        List<Row> firstQuiet = firstHalf.stream().filter(r -> r.note().isEmpty()).toList();
        List<Row> secondQuiet = secondHalf.stream().filter(r -> r.note().isEmpty()).toList();
        StringBuilder md = new StringBuilder();
        if (timed.isEmpty()) {
            String why = a.died != null ? "the app " + a.died : "no reading";
            ctx.report.goal("Bounded memory over time (soak, " + a.spec.id() + ")", "flat", why,
                    Report.Verdict.NOT_MEASURED, "no reading after the warm-up");
            return "### " + a.spec.id() + ": " + a.spec.label() + "\n\nNot measured: " + why + ".\n\n";
        }
        Row startRow = timed.get(0);
        Row endRow = timed.get(timed.size() - 1);
        md.append("### ").append(a.spec.id()).append(": ").append(a.spec.label()).append("\n\n");
        md.append("| minute | heap after GC MB | metaspace MB | RSS MB (anon + file) | NMT committed MB | profiler threads / all "
                + "| fds | work dir KB | JFR repository KB | other tmpdir KB | output dir files / KB "
                + "| look-back ring KB (state) | JFR recordings | retained profiles | sessions (on demand + CPU) "
                + "| errors |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : a.rows) {
            md.append("| ").append(r.label().equals("ready") ? "ready (before warm-up)" : r.label())
                    .append(r.note().isEmpty() ? "" : " (" + r.note() + ")")
                    .append(" | ").append(num(r.heapKb() / 1024.0, 1))
                    .append(" | ").append(num(r.metaspaceKb() / 1024.0, 1))
                    .append(" | ").append(num(r.rssKb() / 1024.0, 1)).append(" (")
                    .append(num(r.rssAnonKb() / 1024.0, 0)).append(" + ").append(num(r.rssFileKb() / 1024.0, 0))
                    .append(")")
                    .append(" | ").append(num(r.nmtCommittedKb() / 1024.0, 1))
                    .append(" | ").append(r.profilerThreads()).append(" / ").append(r.threads())
                    .append(" | ").append(r.fds())
                    .append(" | ").append(num(r.workDirBytes() / 1024.0, 0))
                    .append(" | ").append(num(r.jfrRepoBytes() / 1024.0, 0))
                    .append(" | ").append(num(r.otherTmpBytes() / 1024.0, 0))
                    .append(" | ").append(a.spec.outputDirectory() ? r.outFiles() + " / "
                            + num(r.outBytes() / 1024.0, 0) : "–")
                    .append(" | ").append(r.lookbackBytes() < 0 ? "?" : num(r.lookbackBytes() / 1024.0, 0))
                    .append(" (").append(r.lookbackState()).append(")")
                    .append(" | ").append(r.jfrRecordings())
                    .append(" | ").append(r.retained())
                    .append(" | ").append(r.manual()).append(" + ").append(r.cpu())
                    .append(" | ").append(r.errors()).append(" |\n");
        }
        double heapSlope = slopePer10(secondHalf, r -> r.heapKb() / 1024.0);
        double rssSlope = slopePer10(secondHalf, r -> r.rssKb() / 1024.0);
        double anonSlope = slopePer10(secondHalf, r -> r.rssAnonKb() / 1024.0);
        double fileSlope = slopePer10(secondHalf, r -> r.rssFileKb() / 1024.0);
        double nmtSlope = slopePer10(secondHalf, r -> r.nmtCommittedKb() / 1024.0);
        double metaSlope = slopePer10(secondHalf, r -> r.metaspaceKb() / 1024.0);
        double heapAll = slopePer10(timed, r -> r.heapKb() / 1024.0);
        double rssAll = slopePer10(timed, r -> r.rssKb() / 1024.0);
        boolean heapFlat = heapSlope < HEAP_FLAT;
        boolean rssFlat = rssSlope < RSS_FLAT;
        List<String> grew = new ArrayList<>();
        bounded(grew, "profiler threads", firstQuiet, secondQuiet, Row::profilerThreads, 0);
        bounded(grew, "threads", firstQuiet, secondQuiet, Row::threads, 2);
        bounded(grew, "descriptors", firstQuiet, secondQuiet, Row::fds, 4);
        bounded(grew, "work dir", firstQuiet, secondQuiet, Row::workDirBytes, 1 << 20);
        bounded(grew, "JFR repository", firstQuiet, secondQuiet, Row::jfrRepoBytes, 1 << 20);
        bounded(grew, "output dir", firstQuiet, secondQuiet, Row::outBytes, 1 << 20);
        bounded(grew, "JFR recordings", firstQuiet, secondQuiet, Row::jfrRecordings, 0);
        boolean quick = minutes < 10;
        if (a.died != null) {
            grew.add(0, "the app " + a.died);
        }

        md.append('\n').append(curve(timed, minutes));
        md.append(Proc.fmt("%nSlopes over the second half (minutes %.0f-%d), MB per 10 minutes: **heap after GC %s** "
                        + "(whole run %s), **RSS %s** (whole run %s; anonymous %s, file-backed %s), NMT committed %s, "
                        + "metaspace %s. ",
                minutes / 2.0, minutes, signed(heapSlope, 2), signed(heapAll, 2), signed(rssSlope, 2),
                signed(rssAll, 2), signed(anonSlope, 2), signed(fileSlope, 2), signed(nmtSlope, 2),
                signed(metaSlope, 2)));
        md.append(grew.isEmpty() ? "Threads, descriptors, files and JFR recordings: no new highs in the second half."
                : "New highs in the second half: " + String.join("; ", grew) + ".");
        md.append(Proc.fmt(" The app used %s%% of one core on average over the soak.%n", num(cpuPercent, 1)));
        md.append(Proc.fmt("%nTraffic: %d on-demand sessions and %d CPU-triggered (%d with a look-back part), %d POSTs "
                        + "answered 429 while a CPU-triggered session recorded, %d endpoint requests (%s MB read), "
                        + "%d load requests (%d failed); engines in the profiles: %s; on-demand profiles with 0 "
                        + "samples: %d; status requests that failed: %d. Errors (at most one per round for a failing "
                        + "status): %d%s.%n",
                a.manual.get(), a.cpu.get(), a.cpuWithLookback.get(), a.busy.get(), a.fetches.get(),
                num(a.fetchedBytes.get() / 1e6, 0), a.loadRequests.get(), a.loadErrors.get(), a.engines,
                a.emptyProfiles.get(), a.statusFailures.get(), a.errors.get(), a.errorKinds.isEmpty() ? "" : " (" + String.join("; ", a.errorKinds.entrySet().stream()
                        .map(e -> e.getValue() + " × " + e.getKey()).toList()) + ")"));
        md.append(Proc.fmt("Open descriptors by kind, start → end: %s → %s.%n", a.fdsStart, a.fdsEnd));
        md.append(logSummary(a));
        md.append(histogramDiff(a, startRow.lookbackState(), endRow.lookbackState()));
        md.append(nmtDiff(a));

        String verdictText = quick && a.died == null ? "too short to judge a slope (" + minutes + " min)"
                : heapFlat && rssFlat && grew.isEmpty() ? "flat" : "grows: "
                        + (heapFlat ? "" : "heap after GC; ") + (rssFlat ? "" : "RSS; ") + String.join("; ", grew);
        md.append(Proc.fmt("%n**Verdict (%s): %s.**%n%n", a.spec.id(), verdictText));
        ctx.report.goal("Bounded memory over time (soak, " + a.spec.id() + ")",
                Proc.fmt("heap after GC < %.0f MB and RSS < %.0f MB per 10 min over the second half; threads, fds, "
                        + "files bounded", HEAP_FLAT, RSS_FLAT),
                Proc.fmt("%d min: heap after GC %s → %s MB (%s MB/10 min), RSS %s → %s MB (%s MB/10 min); %d + %d "
                                + "sessions, %d errors", minutes, num(timed.get(0).heapKb() / 1024.0, 1),
                        num(timed.get(timed.size() - 1).heapKb() / 1024.0, 1), signed(heapSlope, 2),
                        num(timed.get(0).rssKb() / 1024.0, 0), num(timed.get(timed.size() - 1).rssKb() / 1024.0, 0),
                        signed(rssSlope, 2), a.manual.get(), a.cpu.get(), a.errors.get()),
                quick && a.died == null ? Report.Verdict.INFO : heapFlat && rssFlat && grew.isEmpty()
                        ? Report.Verdict.MET : Report.Verdict.MISSED,
                quick && a.died == null ? "quick run: too short for a slope; the full run (30 min) judges" : verdictText);
        return md.toString();
    }

    /** The curve at the start and at each third of the run (start, 10, 20, 30 minutes for the full run). */
    private static String curve(List<Row> timed, int minutes) {
        List<Row> marks = new ArrayList<>();
        for (int i = 0; i <= 3; i++) {
            int target = (int) Math.round(minutes * i / 3.0);
            timed.stream().min((x, y) -> Double.compare(Math.abs(x.minute() - target), Math.abs(y.minute() - target)))
                    .ifPresent(marks::add);
        }
        StringBuilder sb = new StringBuilder("Curve (");
        sb.append(String.join(" / ", marks.stream().map(r -> r.label().equals("start") ? "start" : r.label() + " min")
                .toList()));
        sb.append("): heap after GC ").append(String.join(" / ", marks.stream()
                .map(r -> num(r.heapKb() / 1024.0, 1)).toList()));
        sb.append(" MB; RSS ").append(String.join(" / ", marks.stream().map(r -> num(r.rssKb() / 1024.0, 1)).toList()));
        sb.append(" MB; profiler threads ").append(String.join(" / ", marks.stream()
                .map(r -> Long.toString(r.profilerThreads())).toList()));
        sb.append("; fds ").append(String.join(" / ", marks.stream().map(r -> Long.toString(r.fds())).toList()));
        sb.append("; work dir ").append(String.join(" / ", marks.stream()
                .map(r -> num(r.workDirBytes() / 1024.0, 0)).toList())).append(" KB.\n");
        return sb.toString();
    }

    private static void bounded(List<String> grew, String what, List<Row> first, List<Row> second,
            java.util.function.ToDoubleFunction<Row> value, double slack) {
        double a = max(first, value);
        double b = max(second, value);
        if (!Double.isNaN(a) && !Double.isNaN(b) && b > a + slack) {
            boolean isBytes = slack >= 1024;
            grew.add(what + " " + (isBytes ? num(a / 1024, 0) + " → " + num(b / 1024, 0) + " KB"
                    : num(a, 0) + " → " + num(b, 0)));
        }
    }

    /**
     * WARN and ERROR lines of the app's log, by message: the time stamp and the thread name removed, digits as N, and
     * for an exception's log line the exception that follows it.
     */
    private static String logSummary(Soaked a) {
        Map<String, Long> kinds = new LinkedHashMap<>();
        try {
            List<String> lines = Files.readAllLines(a.app.child.log);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.contains(" WARN ") || line.contains(" ERROR ")) {
                    String msg = line.replaceFirst("^\\S+\\s+", "").replaceFirst("\\[[^\\]]*\\] ", "");
                    if (i + 1 < lines.size() && lines.get(i + 1).matches("^[\\w.$]+(Exception|Error)(: .*)?$")) {
                        msg += " / " + lines.get(i + 1);
                    }
                    msg = msg.replaceAll("\\d+", "N");
                    kinds.merge(msg.length() > 400 ? msg.substring(0, 400) + "…" : msg, 1L, Long::sum);
                }
            }
        } catch (IOException e) {
            return "";
        }
        if (kinds.isEmpty()) {
            return "\nThe app's log has no WARN or ERROR line.\n";
        }
        StringBuilder sb = new StringBuilder("\nThe app's log, WARN and ERROR lines (digits as N):\n\n");
        kinds.forEach((k, v) -> sb.append("- ").append(v).append(" × `").append(k.replace("`", "'")).append("`\n"));
        return sb.toString();
    }

    /** The classes whose live bytes grew most between the start and end histograms. */
    private static Path histogramFile(Soaked a, String label) {
        return a.dir.resolve("histograms").resolve("histogram-" + label + ".txt");
    }

    private static String histogramDiff(Soaked a, String lookbackStart, String lookbackEnd) throws IOException {
        List<Row> timed = a.rows.stream().filter(r -> !Double.isNaN(r.minute())).toList();
        Row first = timed.get(0);
        Row last = timed.get(timed.size() - 1);
        Path start = histogramFile(a, first.label());
        Path end = histogramFile(a, last.label());
        if (!Files.exists(start) || !Files.exists(end)) {
            return "";
        }
        Map<String, long[]> s = histogram(start);
        StringBuilder sb = new StringBuilder(Proc.fmt("%nClass histogram (live objects, `GC.class_histogram`), start → "
                + "end: %s → %s MB in all; look-back %s at the start, %s at the end (while it records, its JFR "
                + "stream's parser holds the recording's metadata). Largest growth:%n%n",
                num(first.heapKb() / 1024.0, 2), num(last.heapKb() / 1024.0, 2), lookbackStart, lookbackEnd));
        sb.append(growthTable(s, histogram(end), 12));
        // The highest reading after the start, when it stands out: what it held that the start did not.
        double median = Stats.median(timed.stream().map(r -> r.heapKb() / 1024.0).toList());
        Row top = timed.stream().skip(1).max((x, y) -> Long.compare(x.heapKb(), y.heapKb())).orElse(first);
        Path topFile = histogramFile(a, top.label());
        if (top != first && top.heapKb() / 1024.0 > median + 3 && Files.exists(topFile)) {
            sb.append(Proc.fmt("%nThe highest reading, minute %s (%s MB against a median of %s MB), held more than the "
                    + "start of:%n%n", top.label(), num(top.heapKb() / 1024.0, 1), num(median, 1)));
            sb.append(growthTable(s, histogram(topFile), 6));
        }
        return sb.toString();
    }

    private static String growthTable(Map<String, long[]> s, Map<String, long[]> e, int rows) {
        List<Map.Entry<String, Long>> growth = new ArrayList<>();
        Set<String> classes = new java.util.HashSet<>(s.keySet());
        classes.addAll(e.keySet());
        for (String c : classes) {
            long d = e.getOrDefault(c, new long[2])[1] - s.getOrDefault(c, new long[2])[1];
            growth.add(Map.entry(c, d));
        }
        growth.sort((x, y) -> Long.compare(y.getValue(), x.getValue()));
        StringBuilder sb = new StringBuilder("| class | instances start → end | bytes start → end | Δ KB |\n"
                + "|---|---|---|---|\n");
        for (Map.Entry<String, Long> g : growth.subList(0, Math.min(rows, growth.size()))) {
            long[] x = s.getOrDefault(g.getKey(), new long[2]);
            long[] y = e.getOrDefault(g.getKey(), new long[2]);
            sb.append("| `").append(g.getKey()).append("` | ").append(x[0]).append(" → ").append(y[0]).append(" | ")
                    .append(x[1]).append(" → ").append(y[1]).append(" | ").append(signed(g.getValue() / 1024.0, 1))
                    .append(" |\n");
        }
        return sb.toString();
    }

    private static Map<String, long[]> histogram(Path file) throws IOException {
        Map<String, long[]> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            Matcher m = HISTO_LINE.matcher(line);
            if (m.find()) {
                out.merge(m.group(3), new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))},
                        (x, y) -> new long[] {x[0] + y[0], x[1] + y[1]});
            }
        }
        return out;
    }

    /** NMT's committed memory, end against the baseline at the start: total and categories that moved ≥ 256 KB. */
    private static String nmtDiff(Soaked a) throws IOException {
        Path file = a.dir.resolve("nmt-diff.txt");
        if (!Files.exists(file)) {
            return "";
        }
        String total = "?";
        List<String> moved = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            Matcher t = NMT_TOTAL.matcher(line);
            if (t.find()) {
                total = num(Long.parseLong(t.group(1)) / 1024.0, 1) + " MB ("
                        + (t.group(2) == null ? "+0" : t.group(2)) + " KB)";
                continue;
            }
            Matcher c = NMT_CATEGORY.matcher(line);
            if (c.find() && c.group(3) != null && Math.abs(Long.parseLong(c.group(3))) >= 256) {
                moved.add(c.group(1).trim() + " " + c.group(3) + " KB");
            }
        }
        return Proc.fmt("%nNative memory (NMT, committed) at the end against the start: %s; categories that moved by "
                + "256 KB or more: %s.%n", total, moved.isEmpty() ? "none" : String.join(", ", moved));
    }

    private static String signed(double v, int decimals) {
        return Double.isNaN(v) ? "–" : (v >= 0 ? "+" : "") + num(v, decimals);
    }
}
