package dev.cpuprofiler.threads;

import dev.cpuprofiler.cpu.CpuSampleListener;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which threads burn the CPU: per-thread CPU time read on the CPU sampler's tick, cheaply.
 *
 * <p>A thread that used CPU since its last read (at least 1% of a core) is read again next tick; an idle one backs
 * off to 2, 4, 8, ... ticks up to a cap ({@link ReadBackOff}), so hundreds of parked threads cost a few reads per
 * tick. All due threads are read in one bulk call. The live threads are listed every few ticks to pick up new ones
 * and drop ended ones. Names are read only for threads that use CPU (when first seen using it, and again now and
 * then while they do, as threads may rename themselves) or that a query returns: reading the names of hundreds of
 * parked threads would cost more than tracking them.
 *
 * <p>Runs on the sampler's thread ({@link #onSample}); {@link #top} and the other queries may come from any thread.
 */
public final class ThreadCpuTracker implements CpuSampleListener {

    private static final Logger log = LoggerFactory.getLogger(ThreadCpuTracker.class);

    private final ThreadCpuReader reader;
    private final ThreadTrackerSettings settings;
    private final Map<Long, Tracked> threads = new HashMap<>();
    private final ThreadListing listing = new ThreadListing();
    private final ReadWheel<Tracked> wheel;
    private long tick;
    private long lastReads;
    private int failureStreak;

    public ThreadCpuTracker(ThreadCpuReader reader) {
        this(reader, ThreadTrackerSettings.defaults());
    }

    public ThreadCpuTracker(ThreadCpuReader reader, ThreadTrackerSettings settings) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.wheel = new ReadWheel<>(settings.maxBackOffTicks());
    }

    /** One tick: lists threads if it is time, reads the due ones. Never throws. */
    @Override
    public void onSample(long nanoTime, long cpuTimeNanos, double percent) {
        try {
            tick(nanoTime);
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

    private synchronized void tick(long now) {
        if (!reader.available()) {
            return;
        }
        tick++;
        if ((tick - 1) % settings.listEveryTicks() == 0) {
            list();
        }

        List<Tracked> due = new ArrayList<>();
        for (Tracked t : wheel.take(tick)) {
            if (!t.gone) {
                due.add(t);
            }
        }
        long[] ids = new long[due.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = due.get(i).id;
        }
        long[] cpu = reader.cpuTimes(ids);
        lastReads = ids.length;
        boolean refreshNames = tick % settings.nameRefreshTicks() == 0;
        List<Tracked> needNames = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            Tracked t = due.get(i);
            if (cpu[i] < 0) {
                drop(t.id); // ended between the listing and the read
                continue;
            }
            t.read(tick, now, cpu[i]);
            wheel.schedule(t, t.backOff.dueTick());
            if (t.active && (t.name == null || refreshNames)) {
                needNames.add(t);
            }
        }
        readNames(needNames);
    }

    /** Lists live threads: adds new ones (due now), drops ended ones. */
    private void list() {
        ThreadListing.Diff diff = listing.update(reader.threadIds());
        for (long id : diff.removed()) {
            drop(id);
        }
        for (long id : diff.added()) {
            Tracked t = new Tracked(id, new ReadBackOff(settings.maxBackOffTicks(), tick), settings.window().toNanos());
            threads.put(id, t);
            wheel.schedule(t, tick);
        }
    }

    private void drop(long id) {
        Tracked t = threads.remove(id);
        if (t != null) {
            t.gone = true; // still in the wheel: skipped when its tick comes
        }
    }

    private void readNames(List<Tracked> ts) {
        if (ts.isEmpty()) {
            return;
        }
        long[] ids = ts.stream().mapToLong(t -> t.id).toArray();
        String[] names = reader.names(ids);
        for (int i = 0; i < ids.length; i++) {
            if (names[i] != null) {
                ts.get(i).name = names[i];
            }
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
        List<Tracked> top = threads.values().stream()
                .filter(t -> t.history.cpuInSpan() > 0)
                .sorted(Comparator.comparingDouble(Tracked::percent).reversed())
                .limit(n)
                .toList();
        readNames(top.stream().filter(t -> t.name == null).toList());
        return top.stream().map(Tracked::recent).toList();
    }

    /** One thread's recent CPU use, if it is tracked and was read at least twice. */
    public synchronized Optional<ThreadCpu> thread(long id) {
        Tracked t = threads.get(id);
        if (t == null || t.history.size() < 2) {
            return Optional.empty();
        }
        if (t.name == null) {
            readNames(List.of(t));
        }
        return Optional.of(t.recent());
    }

    /** Ids of the threads whose last read showed CPU use: the ones read every tick. */
    public synchronized long[] activeThreadIds() {
        return threads.values().stream().filter(t -> t.active).mapToLong(t -> t.id).toArray();
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

    /** One thread's read schedule and recent reads. */
    private static final class Tracked {
        final long id;
        final ReadBackOff backOff;
        final ReadHistory history;
        String name;
        boolean active;
        boolean gone;

        Tracked(long id, ReadBackOff backOff, long windowNanos) {
            this.id = id;
            this.backOff = backOff;
            this.history = new ReadHistory(windowNanos);
        }

        void read(long tick, long now, long cpu) {
            if (history.size() == 0) {
                backOff.firstRead(tick); // CPU since the thread started, over an unknown span: only a baseline
            } else {
                active = ReadBackOff.active(cpu - history.lastCpu(), now - history.lastTime());
                backOff.read(tick, active);
            }
            history.add(now, cpu);
        }

        double percent() {
            long span = history.span();
            return span <= 0 ? 0 : (double) history.cpuInSpan() / span;
        }

        ThreadCpu recent() {
            return ThreadCpu.of(id, name == null ? "thread-" + id : name, history.cpuInSpan(), history.span());
        }
    }
}
