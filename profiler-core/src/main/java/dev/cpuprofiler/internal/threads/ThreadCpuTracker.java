package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuBreakdown;
import dev.cpuprofiler.ThreadCpu;

import dev.cpuprofiler.internal.cpu.CpuSampleListener;
import java.util.ArrayList;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongFunction;
import java.util.function.ObjLongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which threads burn the CPU: per-thread CPU time read on the CPU sampler's tick, cheaply.
 *
 * <p>A thread that used CPU since its last read (at least 1% of a core) is read again next tick; an idle one backs
 * off to 2, 4, 8, ... ticks up to a cap ({@link ReadBackOff}), so hundreds of parked threads cost a few reads per
 * tick. All due threads are read in one bulk call, and a tick with none due reads nothing. Names are read only for
 * threads that use CPU (when first seen using it, and again now and then while they do, as threads may rename
 * themselves) or that a query returns: reading the names of hundreds of parked threads would cost more than tracking
 * them.
 *
 * <p>The live threads are listed (to find new ones and drop ended ones) only when the JVM's thread counters, started
 * and alive, say one started or ended since the last listing, and once more on the tick after (a thread that is
 * ending is counted out a little before it leaves the list); and at least every
 * {@link #LIST_EVERY_TICKS} ticks, for anything the counters miss. A reader without counters has
 * its threads listed every tick. Listing
 * every tick was most of an idle application's tracking cost, yet two counters find a new thread on the very next
 * tick: one that starts burning CPU is in {@link #top} two ticks later, as before. An ended thread is dropped at the
 * next listing, or at its next read, which reports it gone.
 *
 * <p>A tick on which the whole process used less CPU than one active thread would ({@link ReadBackOff#ACTIVE_SHARE}
 * of a core, told by the sampler's counter), while no thread was active at its last read, is skipped whole: no
 * thread can have become active, so reading would only advance back-offs. An idle application then pays for the
 * listener call and nothing else; its threads' recent CPU is taken as nothing since their last read (true to within
 * that share), so a burst that ended fades out of {@link #top} over the window as it would with reads. The first
 * tick the process is busy again is an ordinary tick (listing included when threads started or ended meanwhile).
 * A source whose counter also counts other processes (a container's cgroup) only makes quiet ticks rarer.
 *
 * <p>A tick allocates nothing when nothing changed: the read callback and the thread factory are bound once, the
 * list of threads whose names are wanted is reused. This code runs once a second, so it stays interpreted: its cost
 * is the bytecodes it runs and the objects it makes, not how fast compiled code would be.
 *
 * <p>Runs on the sampler's thread ({@link #onSample}); {@link #top} and the other queries may come from any thread.
 */
public final class ThreadCpuTracker implements CpuSampleListener {

    private static final Logger log = LoggerFactory.getLogger(ThreadCpuTracker.class);
    /** The span a thread's CPU% is averaged over (longer for an idle thread read rarely). */
    private static final Duration WINDOW = Duration.ofSeconds(10);
    /** The longest wait, in ticks, between two reads of an idle thread: how late a thread that wakes is noticed. */
    public static final int MAX_BACK_OFF_TICKS = 32;
    /**
     * The longest wait, in ticks, between two listings of the live threads besides those the thread counters call for:
     * an ended thread that nothing else reveals is gone from the table within 10 s.
     */
    private static final int LIST_EVERY_TICKS = 10;
    /** How often the names of active threads are read again (threads may rename themselves). */
    private static final int NAME_REFRESH_TICKS = 60;

    private final ThreadCpuReader reader;
    private final int maxBackOffTicks;
    private final long saturationWindowNanos;
    private final double saturationPercent;
    // The span a thread's reads are kept for: the longer of the two windows.
    private final long keepNanos;
    private final WatchedThreads<Tracked> threads;
    private final ObjLongConsumer<Tracked> onRead = this::onRead;
    private final LongFunction<Tracked> newTracked = this::newTracked;
    private final List<Tracked> needNames = new ArrayList<>();
    // The threads read active on this tick: the only ones that can be pinned at a core.
    private final List<Tracked> readActive = new ArrayList<>();
    private volatile SaturationReading saturation;
    private volatile double hottestTickPercent = Double.NaN;
    // The tracker's own tick count: skipped (quiet) ticks do not count, so back-offs are in ticks actually read.
    private long tick;
    private long lastReads;
    private int failureStreak;
    // The thread counters at the last listing, and whether the next tick lists again regardless.
    private long listedStarted = -1;
    private long listedLive = -1;
    private long lastListTick;
    private boolean listAgain;
    // The tick being read, for onRead.
    private long readNanoTime;
    private boolean refreshNames;
    // Threads whose last read showed CPU use (kept as reads and drops change it), and the process's counter at the
    // previous sample: a tick is skipped when both say nothing is going on.
    private int activeThreads;
    private long lastSampleNanos;
    private long lastSampleCpu;
    private boolean hasLastSample;
    // The time of the latest skipped tick while the latest tick was skipped, else 0: queries count up to it.
    private long quietNow;

    /** With the saturation trigger's window and threshold from {@code options}. */
    public ThreadCpuTracker(ThreadCpuReader reader, CpuProfilerOptions options) {
        this(reader, options, MAX_BACK_OFF_TICKS);
    }

    /** @param maxBackOffTicks the longest back-off, in ticks: 1 reads every thread on every tick */
    public ThreadCpuTracker(ThreadCpuReader reader, CpuProfilerOptions options, int maxBackOffTicks) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.maxBackOffTicks = maxBackOffTicks;
        this.saturationWindowNanos = options.effectiveSaturationWindow().toNanos();
        this.saturationPercent = options.getSaturation().getThreshold();
        this.keepNanos = Math.max(WINDOW.toNanos(), saturationWindowNanos);
        this.threads = new WatchedThreads<>(reader, maxBackOffTicks, t -> {
            if (t.active) {
                activeThreads--;
            }
        });
    }

    /** One tick: lists threads if it is time, reads the due ones. Never throws. */
    @Override
    public void onSample(long nanoTime, long cpuTimeNanos, double percent) {
        try {
            tick(nanoTime, cpuTimeNanos, percent);
            if (failureStreak > 0) {
                log.info("Thread CPU tracking works again after {} failed ticks", failureStreak);
                failureStreak = 0;
            }
        } catch (RuntimeException e) {
            if (failureStreak++ == 0) {
                log.warn("Thread CPU tracking failed; retrying every tick", e);
            }
        }
    }

    private synchronized void tick(long now, long processCpu, double percent) {
        boolean quietProcess = quiet(now, processCpu, percent);
        if (quietProcess && activeThreads == 0 && tick > 0) {
            quietNow = now;
            saturation = null; // nothing active: nothing pinned
            hottestTickPercent = 0;
            return;
        }
        quietNow = 0;
        if (!reader.available()) {
            return;
        }
        tick++;
        if (listingDue()) {
            lastListTick = tick;
            threads.list(reader.threadIds(), newTracked, tick);
        }

        readNanoTime = now;
        refreshNames = tick % NAME_REFRESH_TICKS == 0;
        lastReads = threads.readDue(tick, onRead);
        if (!needNames.isEmpty()) {
            threads.readNames(needNames);
            needNames.clear();
        }
        saturation(now);
        readActive.clear();
    }

    /**
     * The saturation trigger's view of this tick: among the application threads read active, the one pinned at or
     * above the threshold over a whole window (the hottest such), else the hottest. Each costs two reads of its
     * history, so a tick costs this per active thread, and nothing on a quiet tick.
     */
    private void saturation(long now) {
        long window = saturationWindowNanos;
        Tracked best = null;
        double bestPercent = -1;
        boolean bestPinned = false;
        double tickMax = 0;
        for (Tracked t : readActive) {
            if (!t.application()) {
                continue; // the profiler's own, JFR's, the JVM's: never a reason to profile the application
            }
            tickMax = Math.max(tickMax, t.lastPercent);
            long span = t.history.spanOf(window, 0);
            double percent = span <= 0 ? 0 : 100.0 * t.history.cpuIn(window, 0) / span;
            boolean pinned = percent >= saturationPercent && t.history.covers(window, 0);
            t.pinnedSince = pinned ? (t.pinnedSince == 0 ? now : t.pinnedSince) : 0;
            if (pinned && !bestPinned || pinned == bestPinned && percent > bestPercent) {
                best = t;
                bestPercent = percent;
                bestPinned = pinned;
            }
        }
        hottestTickPercent = tickMax;
        saturation = best == null ? null : new SaturationReading(best.id, best.name, Math.round(bestPercent * 100)
                / 100.0, bestPinned ? Duration.ofNanos(now - best.pinnedSince) : null);
    }

    /** The saturation trigger's reading at the latest tick; empty when no application thread was active. */
    public Optional<SaturationReading> saturation() {
        return Optional.ofNullable(saturation);
    }

    /**
     * The highest share of one core any application thread used between its last two reads, in percent, at the latest tick: what
     * arms the look-back before a thread has been pinned for a whole window. NaN before the first tick.
     */
    public double hottestTickPercent() {
        return hottestTickPercent;
    }

    /**
     * Whether the process used less than {@link ReadBackOff#ACTIVE_SHARE} of one core since the previous sample. Not
     * before a CPU% exists (the sampler's first sample, or a caller without a counter, passes NaN).
     */
    private boolean quiet(long now, long processCpu, double percent) {
        boolean known = hasLastSample && !Double.isNaN(percent);
        long cpuDelta = processCpu - lastSampleCpu;
        long wallDelta = now - lastSampleNanos;
        lastSampleNanos = now;
        lastSampleCpu = processCpu;
        hasLastSample = true;
        return known && wallDelta > 0 && !ReadBackOff.active(cpuDelta, wallDelta);
    }

    /** Whether to list the live threads on this tick (see the class comment). */
    private boolean listingDue() {
        // Started first: a thread started after this read changes it by the next tick, whatever the listing misses.
        long started = reader.startedThreadCount();
        long live = reader.liveThreadCount();
        boolean changed = started < 0 || live < 0 || started != listedStarted || live != listedLive;
        boolean due = tick == 1 || changed || listAgain || tick - lastListTick >= LIST_EVERY_TICKS;
        if (due) {
            listAgain = tick > 1 && changed && started >= 0 && live >= 0;
            listedStarted = started;
            listedLive = live;
        }
        return due;
    }

    /** A newly listed thread, due now. */
    private Tracked newTracked(long id) {
        return new Tracked(id, new ReadBackOff(maxBackOffTicks, tick), keepNanos);
    }

    /** One due thread's read: schedules its next one, and asks for its name if it uses CPU. */
    private void onRead(Tracked t, long cpu) {
        boolean wasActive = t.active;
        t.read(tick, readNanoTime, cpu);
        if (t.active != wasActive) {
            activeThreads += t.active ? 1 : -1;
        }
        if (t.active) {
            readActive.add(t);
        } else {
            t.pinnedSince = 0; // idle now: pinned no more
        }
        threads.schedule(t, t.backOff.dueTick());
        if (t.active && (t.name == null || refreshNames)) {
            needNames.add(t);
        }
    }

    /**
     * The {@code n} threads with the highest recent CPU% (% of ONE core, averaged over the window), highest first;
     * threads that used no CPU in their window are left out. A thread needs two reads (two ticks) to appear.
     */
    public synchronized List<ThreadCpu> top(int n) {
        if (n <= 0) {
            return List.of();
        }
        long asOf = quietNow;
        List<Tracked> top = threads.live().stream()
                .filter(t -> t.cpuIn(window(), asOf) > 0)
                .sorted(Comparator.comparingDouble((Tracked t) -> t.percent(window(), asOf)).reversed())
                .limit(n)
                .toList();
        threads.readNames(top.stream().filter(t -> t.name == null).toList());
        return top.stream().map(t -> t.recent(window(), asOf)).toList();
    }

    /** One thread's recent CPU use, if it is tracked and was read at least twice. */
    public synchronized Optional<ThreadCpu> thread(long id) {
        Tracked t = threads.get(id);
        if (t == null || t.history.size() < 2) {
            return Optional.empty();
        }
        if (t.name == null) {
            threads.readNames(List.of(t));
        }
        return Optional.of(t.recent(window(), quietNow));
    }

    /** Ids of the threads whose last read showed CPU use: the ones read every tick. */
    public synchronized long[] activeThreadIds() {
        return threads.live().stream().filter(t -> t.active).mapToLong(t -> t.id).toArray();
    }

    /** The cached name of a tracked thread, or null if not read (yet). */
    public synchronized String name(long id) {
        Tracked t = threads.get(id);
        return t == null ? null : t.name;
    }

    /** How many threads are tracked (the live ones as of the last listing). */
    public synchronized int trackedThreads() {
        return threads.size();
    }

    /** How many thread CPU times the last tick read. */
    public synchronized long lastTickReads() {
        return lastReads;
    }

    @Override
    public synchronized String toString() {
        return "ThreadCpuTracker[" + threads.size() + " threads, tick " + tick + ", active "
                + Arrays.toString(activeThreadIds()) + "]";
    }

    private long window() {
        return WINDOW.toNanos();
    }

    /** One thread's read schedule and recent reads. */
    private static final class Tracked extends WatchedThreads.Entry {
        final ReadBackOff backOff;
        final ReadHistory history;
        boolean active;
        /** Its share of a core between its last two reads, percent. */
        double lastPercent;
        /** Since when (the sampler's clock) it has been pinned at the saturation threshold; 0 when it is not. */
        long pinnedSince;
        private String classified;
        private boolean application;

        /** Whether it is the application's (not the profiler's, JFR's or the JVM's), by its name once read. */
        boolean application() {
            if (name != null && !name.equals(classified)) {
                classified = name;
                application = ThreadGroupClassifier.classify(name) == CpuBreakdown.Group.APPLICATION;
            }
            return name != null && application;
        }

        Tracked(long id, ReadBackOff backOff, long keepNanos) {
            super(id);
            this.backOff = backOff;
            this.history = new ReadHistory(keepNanos);
        }

        void read(long tick, long now, long cpu) {
            if (history.size() == 0) {
                backOff.firstRead(tick); // CPU since the thread started, over an unknown span: only a baseline
            } else {
                long wall = now - history.lastTime();
                active = ReadBackOff.active(cpu - history.lastCpu(), wall);
                lastPercent = wall <= 0 ? 0 : 100.0 * (cpu - history.lastCpu()) / wall;
                backOff.read(tick, active);
            }
            history.add(now, cpu);
        }

        /** CPU in the window; {@code asOf} non-zero: the window ends then, with nothing used since the last read. */
        long cpuIn(long window, long asOf) {
            return history.cpuIn(window, asOf);
        }

        double percent(long window, long asOf) {
            long span = history.spanOf(window, asOf);
            return span <= 0 ? 0 : (double) cpuIn(window, asOf) / span;
        }

        ThreadCpu recent(long window, long asOf) {
            return ThreadCpu.of(id, name == null ? "thread-" + id : name, cpuIn(window, asOf),
                    history.spanOf(window, asOf));
        }
    }
}
