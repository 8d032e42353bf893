package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuBreakdown;
import dev.cpuprofiler.internal.cpu.ProcessCpuSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures where the process's CPU time went during a session: {@link #start()} when it starts,
 * {@link Measurement#finish()} when it ends. Costs two snapshots of every thread's CPU time (two listings of
 * {@code /proc/self/task}) per session, nothing in between.
 *
 * <p>Reads {@code /proc/self/task} (every thread, GC and JIT included); where it cannot (not Linux, or hidden), the
 * Java threads through a {@link ThreadCpuReader}. The process's CPU time is read before the start snapshot and
 * after the end one, so threads can only add up to less than it, never more, when nothing ends in between.
 *
 * <p>Never throws: what cannot be measured gives an empty result, logged once per probe.
 */
public final class CpuBreakdownProbe {

    private static final Logger log = LoggerFactory.getLogger(CpuBreakdownProbe.class);

    private final TaskCpuSource proc;
    private final TaskCpuSource jvm;
    private final LongSupplier processCpuTimeNanos;
    private final AtomicBoolean procFailureLogged = new AtomicBoolean();
    private final AtomicBoolean failureLogged = new AtomicBoolean();

    /** Production wiring: the platform MXBeans for the process's and the Java threads' CPU time. */
    public CpuBreakdownProbe(Path fsRoot) {
        this(fsRoot, ProcessCpuSource.platformProcessCpuTime(), new ManagementThreadCpuReader());
    }

    /**
     * @param fsRoot {@code /} in production; tests point it at a fake tree
     * @param processCpuTimeNanos the process's cumulative CPU time in ns (negative: unknown)
     * @param jvmThreads the fallback where {@code /proc/self/task} cannot be read
     */
    public CpuBreakdownProbe(Path fsRoot, LongSupplier processCpuTimeNanos, ThreadCpuReader jvmThreads) {
        this(new ProcTaskCpuReader(fsRoot), new JvmThreadCpuSource(jvmThreads), processCpuTimeNanos);
    }

    CpuBreakdownProbe(TaskCpuSource proc, TaskCpuSource jvm, LongSupplier processCpuTimeNanos) {
        this.proc = Objects.requireNonNull(proc, "proc");
        this.jvm = Objects.requireNonNull(jvm, "jvm");
        this.processCpuTimeNanos = Objects.requireNonNull(processCpuTimeNanos, "processCpuTimeNanos");
    }

    /** Takes the start snapshot. Never throws; when nothing can be read, the measurement finishes empty. */
    public Measurement start() {
        long processStart = processCpuTime();
        try {
            return new Measurement(proc, proc.snapshot(), processStart);
        } catch (IOException | RuntimeException e) {
            if (!procFailureLogged.getAndSet(true)) {
                log.debug("No per-thread CPU from /proc ({}): the CPU breakdown covers Java threads only", e.toString());
            }
        }
        try {
            return new Measurement(jvm, jvm.snapshot(), processStart);
        } catch (IOException | RuntimeException e) {
            logFailure(e);
            return new Measurement(null, null, processStart);
        }
    }

    private long processCpuTime() {
        try {
            return processCpuTimeNanos.getAsLong();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private void logFailure(Exception e) {
        if (!failureLogged.getAndSet(true)) {
            log.info("Cannot measure where the CPU time went (no per-thread CPU time): {}", e.toString());
        }
    }

    /** A session's start snapshot; {@link #finish()} takes the end one. */
    public final class Measurement {

        private final TaskCpuSource source; // null: nothing could be read at the start
        private final TaskCpuSource.Snapshot start;
        private final long processStart;

        private Measurement(TaskCpuSource source, TaskCpuSource.Snapshot start, long processStart) {
            this.source = source;
            this.start = start;
            this.processStart = processStart;
        }

        /**
         * Takes the end snapshot: the breakdown since {@link #start()}, or empty when it could not be read. Never
         * throws.
         */
        public Optional<CpuBreakdown> finish() {
            if (source == null) {
                return Optional.empty();
            }
            try {
                TaskCpuSource.Snapshot end = source.snapshot();
                long processEnd = processCpuTime();
                long process = processStart >= 0 && processEnd >= processStart ? processEnd - processStart : -1;
                if (start.malformed() + end.malformed() > 0) {
                    log.debug("Skipped {} unparsable thread entries in the CPU breakdown",
                            start.malformed() + end.malformed());
                }
                return Optional.of(CpuBreakdownCalculator.compute(source.id(), start, end, process));
            } catch (IOException | RuntimeException e) {
                logFailure(e);
                return Optional.empty();
            }
        }
    }

    /**
     * The fallback where there is no {@code /proc/self/task}: the Java threads' CPU time from a
     * {@link ThreadCpuReader}. HotSpot's GC and compiler threads are not Java threads (or are hidden), so their time
     * is not here; a breakdown from this source shows it as unattributed.
     */
    private static final class JvmThreadCpuSource implements TaskCpuSource {

        private final ThreadCpuReader reader;

        JvmThreadCpuSource(ThreadCpuReader reader) {
            this.reader = Objects.requireNonNull(reader, "reader");
        }

        @Override
        public String id() {
            return CpuBreakdown.SOURCE_JVM;
        }

        @Override
        public TaskCpuSource.Snapshot snapshot() throws IOException {
            if (!reader.available()) {
                throw new IOException("this JVM cannot measure per-thread CPU time");
            }
            long[] ids = reader.threadIds();
            long[] cpu = reader.cpuTimes(ids);
            String[] names = reader.names(ids);
            Map<Long, TaskCpuSource.Snapshot.TaskCpu> tasks = new HashMap<>();
            for (int i = 0; i < ids.length; i++) {
                if (cpu[i] >= 0 && names[i] != null) { // -1 / null: ended between the listing and the reads
                    tasks.put(ids[i], new TaskCpuSource.Snapshot.TaskCpu(names[i], cpu[i]));
                }
            }
            return new TaskCpuSource.Snapshot(tasks, 0);
        }
    }
}
