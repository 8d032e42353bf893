package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.ThreadCpu;
import dev.cpuprofiler.ConcurrencyReport;

import dev.cpuprofiler.internal.cpu.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;
import java.util.function.ObjLongConsumer;

/**
 * One profile's worth of fine ticks: which threads to read on each, their deltas fed to a
 * {@link ConcurrencyEstimator}, and per-thread CPU totals. Single-threaded: the sampler's thread drives it.
 *
 * <p>Threads the tracker saw as active are read every tick from the start; the others are re-checked at their
 * back-off cap, staggered so that a few are read per tick. A thread that uses at least
 * {@link Tuning#activeShare()} of a core is read every tick from then on, until it has been quiet for
 * {@link Tuning#holdTicks()}; then it backs off again. A delta that covers several ticks is spread over
 * them. Threads started during the profile are found by listing every few ticks; a new thread's CPU time counts
 * from its start, which lies after the previous listing. A thread that ends loses the CPU it used since its last
 * read. A thread is named when first seen using CPU (it may be gone by the report).
 */
final class ConcurrencyRun {

    private final ThreadCpuReader reader;
    private final Tuning settings;
    private final Ticker ticker;
    private final Set<Long> likelyActive = new HashSet<>();
    private final LongPredicate excluded;
    private final LongFunction<String> knownNames;
    private final ConcurrencyEstimator estimator;
    private final WatchedThreads<Watched> watched;
    private final List<Watched> ended = new ArrayList<>();

    private long tick;
    private long startNanos;
    private long lastNanos;
    private long lastListTick;
    private long lastListNanos;
    private long reads;
    private int seen;

    /**
     * @param likelyActive threads to read every tick from the start
     * @param excluded threads to leave out (the sampler's own)
     * @param knownNames names already known elsewhere (the tracker's), asked before reading a name; may return null
     * @param cpus how many threads can run at once (the CPUs the process can run on)
     */
    ConcurrencyRun(ThreadCpuReader reader, Tuning settings, Ticker ticker, long[] likelyActive,
            LongPredicate excluded, LongFunction<String> knownNames, int cpus) {
        this.reader = reader;
        this.settings = settings;
        this.ticker = ticker;
        for (long id : likelyActive) {
            this.likelyActive.add(id);
        }
        this.excluded = excluded;
        this.knownNames = knownNames;
        this.estimator = new ConcurrencyEstimator(Math.max(settings.maxBackOffTicks(), settings.listEveryTicks()),
                cpus);
        // A thread that ends loses the CPU it used since its last read; one that used none is left out of the report.
        this.watched = new WatchedThreads<>(reader, settings.maxBackOffTicks(), w -> {
            if (w.total > 0) {
                ended.add(w);
            }
        });
    }

    /** The baseline: every live thread's CPU time now (one bulk read, done once). */
    void begin() {
        startNanos = ticker.nanoTime();
        lastNanos = startNanos;
        lastListNanos = startNanos;
        long[] ids = listed();
        watched.firstListing(ids);
        long[] cpu = reader.cpuTimes(ids);
        reads += ids.length;
        int cap = settings.maxBackOffTicks();
        int hold = settings.holdTicks();
        int idle = 0;
        for (int i = 0; i < ids.length; i++) {
            if (cpu[i] < 0) {
                continue;
            }
            // Idle ones staggered over the cap: about n / cap of them are read per tick.
            ReadBackOff backOff = likelyActive.contains(ids[i])
                    ? new ReadBackOff(cap, hold, 1)
                    : ReadBackOff.atCap(cap, hold, 1 + (idle++ % cap));
            watched.add(new Watched(ids[i], backOff, cpu[i], 0, startNanos), backOff.dueTick());
            seen++;
        }
    }

    /** One fine tick: list if due, read the due threads, feed the deltas. */
    void tick() {
        tick(false);
    }

    /** The last tick: reads every thread, so that each one's total is complete. */
    void finalTick() {
        tick(true);
    }

    private void tick(boolean all) {
        long now = ticker.nanoTime();
        tick++;
        estimator.tick(now - lastNanos);
        lastNanos = now;
        if (tick % settings.listEveryTicks() == 0) {
            list(now);
        }

        List<Watched> unnamed = new ArrayList<>();
        ObjLongConsumer<Watched> read = (w, cpu) -> read(w, cpu, now, !all, unnamed);
        reads += all ? watched.readAll(read) : watched.readDue(tick, read);
        watched.readNames(unnamed);
    }

    /** One thread's read: its delta to the estimator, its back-off and total; a thread first seen busy to name. */
    private void read(Watched w, long cpu, long now, boolean reschedule, List<Watched> unnamed) {
        long delta = Math.max(0, cpu - w.lastCpu);
        long span = tick - w.lastTick;
        if (span <= 1) {
            estimator.exact(w.id, delta);
        } else {
            estimator.spread((int) span, delta);
        }
        if (delta > 0 && w.name == null) {
            // Named when first seen using CPU, while it is alive: it may end before the report.
            w.name = knownNames.apply(w.id);
            if (w.name == null) {
                unnamed.add(w);
            }
        }
        w.backOff.read(tick, ReadBackOff.active(delta, now - w.lastNanos, settings.activeShare()));
        if (reschedule) {
            watched.schedule(w, w.backOff.dueTick());
        }
        w.total += delta;
        w.lastCpu = cpu;
        w.lastTick = tick;
        w.lastNanos = now;
    }

    /** Lists live threads: new ones get a zero baseline at the previous listing; missing ones have ended. */
    private void list(long now) {
        watched.list(listed(), id -> {
            // Started after the previous listing: all its CPU time was used since then.
            seen++;
            return new Watched(id, new ReadBackOff(settings.maxBackOffTicks(), settings.holdTicks(), tick), 0,
                    lastListTick, lastListNanos);
        }, tick);
        lastListTick = tick;
        lastListNanos = now;
    }

    private long[] listed() {
        long[] ids = reader.threadIds();
        int n = 0;
        for (long id : ids) {
            if (!excluded.test(id)) {
                ids[n++] = id;
            }
        }
        return Arrays.copyOf(ids, n);
    }

    long ticks() {
        return tick;
    }

    /** Thread CPU times read so far (the cost driver). */
    long reads() {
        return reads;
    }

    /** The report over everything ticked so far. */
    ConcurrencyReport report(double effectiveCpus) {
        ConcurrencyEstimator.Totals totals = estimator.finishAll();
        double t = totals.totalNanos();
        double[] h = totals.histogram();
        int top = h.length - 1;
        while (top > 0 && h[top] <= 0) {
            top--;
        }
        List<ConcurrencyReport.Bin> bins = new ArrayList<>();
        double running = 0;
        double kt = 0;
        for (int k = 0; k <= top; k++) {
            bins.add(new ConcurrencyReport.Bin(k, h[k] / 1e9));
            kt += k * h[k];
            if (k > 0) {
                running += h[k];
            }
        }
        double average = t > 0 ? kt / t : 0;
        return new ConcurrencyReport(Duration.ofNanos((long) t), settings.tick(), effectiveCpus, bins, average,
                t > 0 ? Math.min(1, kt / (t * effectiveCpus)) : 0, t > 0 ? clamp(running / t) : 0,
                t > 0 ? clamp(totals.lowerNanos() / t) : 0, t > 0 ? clamp(totals.upperNanos() / t) : 0,
                threads(), seen);
    }

    /**
     * Each thread's CPU as a percent of one core over the whole profile, however long it lived in it: a thread that
     * burned 38 ms in a 30-s profile shows 0.1%, not a share of its short life, so the figures add up to the
     * utilization and compare with the CPU breakdown.
     */
    private List<ThreadCpu> threads() {
        List<Watched> used = new ArrayList<>(ended);
        for (Watched w : watched.live()) {
            if (w.total > 0) {
                used.add(w);
            }
        }
        return used.stream()
                .map(w -> ThreadCpu.of(w.id, w.name == null ? "thread-" + w.id : w.name, w.total,
                        lastNanos - startNanos))
                .sorted(Comparator.comparing(ThreadCpu::cpuTime).reversed())
                .toList();
    }

    private static double clamp(double v) {
        return Math.min(1, Math.max(0, v));
    }

    /** One thread during the profile. */
    private static final class Watched extends WatchedThreads.Entry {
        final ReadBackOff backOff;
        long lastCpu;
        long lastTick;
        long lastNanos;
        long total;

        Watched(long id, ReadBackOff backOff, long baselineCpu, long baselineTick, long baselineNanos) {
            super(id);
            this.backOff = backOff;
            this.lastCpu = baselineCpu;
            this.lastTick = baselineTick;
            this.lastNanos = baselineNanos;
        }
    }

    /**
     * How a run reads threads: fixed, tuned for cost, not a setting (tests vary it).
     *
     * @param tick the fine tick: the resolution of "how many threads ran at once"
     * @param maxBackOffTicks the longest wait, in fine ticks, between two reads of a thread that looked idle: how
     *        late a waking thread can be noticed (its CPU until then is spread over the gap)
     * @param holdTicks how many idle ticks in a row a thread that was running is still read every tick before it
     *        backs off: threads with pauses shorter than that are followed tick by tick, so their busy time can be
     *        placed within ticks; longer pauses cost at most one smeared delta
     * @param listEveryTicks how often, in fine ticks, live threads are listed to find threads started during the
     *        profile
     * @param activeShare the share of one core (0..1) a thread must use since its last read to be read every tick:
     *        threads lighter than that are followed at back-off, their CPU spread over the ticks between reads (it
     *        keeps the cost bounded when hundreds of threads each do a little, and light threads gain little from
     *        exact ticks: their busy time is a small share of any tick, placed at random either way)
     */
    record Tuning(Duration tick, int maxBackOffTicks, int holdTicks, int listEveryTicks, double activeShare) {

        /**
         * The sampler's: a 10 ms tick; a thread that used at least 10% of a core since its last read is read every
         * tick, and stays so until idle for 20 ticks (200 ms); others back off to at most every 64 ticks (640 ms);
         * threads are listed every 25 ticks (250 ms). The caps keep the cost low: with hundreds of parked threads,
         * re-checking idle ones is most of the reads.
         */
        static final Tuning DEFAULT = new Tuning(Duration.ofMillis(10), 64, 20, 25, 0.10);
    }
}
