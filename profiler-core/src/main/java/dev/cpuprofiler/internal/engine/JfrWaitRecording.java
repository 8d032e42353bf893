package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.Profile.Latency.WaitKind;
import dev.cpuprofiler.internal.stack.Frame;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What threads waited on while a LATENCY profile records: JFR's blocking events, each with its thread, start,
 * duration and stack, above a threshold ({@code profiler.latency.wait-threshold}; shorter waits are not recorded and
 * cost nothing). A JFR recording of its own, beside whichever engine samples the CPU (JFR merges two recordings'
 * settings; async-profiler does not mind JFR). On JDK 21+ a virtual thread's parks and monitor waits emit no event:
 * its sleeps and I/O do.
 */
public final class JfrWaitRecording {

    private static final Logger log = LoggerFactory.getLogger(JfrWaitRecording.class);
    /** The most a wait recording may write: beyond it JFR drops its oldest chunks. */
    static final long MAX_BYTES = 32L * 1024 * 1024;
    static final Set<String> EVENTS = Set.of("jdk.JavaMonitorEnter", "jdk.JavaMonitorWait", "jdk.ThreadPark",
            "jdk.ThreadSleep", "jdk.SocketRead", "jdk.SocketWrite", "jdk.FileRead", "jdk.FileWrite");


    /** Where a recording's waits go, as they are read back. */
    @FunctionalInterface
    public interface WaitSink {

        /**
         * @param framesRootFirst the waiting stack, the thread's first frame first
         */
        void accept(long threadId, long startEpochNanos, long durationNanos, WaitKind kind,
                List<Frame> framesRootFirst);
    }

    private final Recording recording;
    private final Path file;
    private final JfrStackConverter stacks;

    private JfrWaitRecording(Recording recording, Path file, int maxStackDepth) {
        this.recording = recording;
        this.file = file;
        this.stacks = new JfrStackConverter(maxStackDepth, false);
    }

    /**
     * Starts recording waits at least {@code threshold} long, into a file of the work directory named after the
     * session.
     *
     * @throws EngineUnavailableException when JFR cannot record here
     */
    public static JfrWaitRecording start(Duration threshold, Path workDirectory, String sessionId, int maxStackDepth)
            throws EngineUnavailableException {
        Recording r = null;
        try {
            r = new Recording();
            r.setName("cpuprofiler-waits-" + sessionId);
            for (String event : EVENTS) {
                // JDK 25 throttles socket and file events to 100 a second by default, which kept a third of the read
                // time in a probe; JDK 17 has no such setting, and ignores it.
                r.enable(event).withThreshold(threshold).withStackTrace().with("throttle", "off");
            }
            r.setToDisk(true);
            r.setMaxSize(MAX_BYTES);
            Path file = workDirectory.resolve(sessionId + "-waits.jfr");
            r.setDestination(file);
            r.start();
            return new JfrWaitRecording(r, file, maxStackDepth);
        } catch (IOException | RuntimeException e) {
            if (r != null) {
                r.close();
            }
            throw new EngineUnavailableException("jfr-waits", "JFR cannot record waits here ("
                    + EngineUnavailableException.unexpected(e) + ")", e);
        }
    }

    /** Stops, reads every wait back into the sink, deletes the file. Never throws: a failure costs the waits only. */
    public void stop(WaitSink sink) {
        try {
            recording.stop(); // writes the destination
            try (RecordingFile in = new RecordingFile(file)) {
                while (in.hasMoreEvents()) {
                    RecordedEvent e = in.readEvent();
                    RecordedThread thread = e.getThread();
                    if (thread == null || e.getStackTrace() == null) {
                        continue;
                    }
                    List<Frame> frames = stacks.rootFirst(e.getStackTrace());
                    sink.accept(thread.getJavaThreadId(), epochNanos(e.getStartTime()), e.getDuration().toNanos(),
                            kind(e, frames), frames);
                }
            }
        } catch (IOException | RuntimeException e) {
            log.warn("The waits of a LATENCY profile could not be read back: {}", e.toString());
        } finally {
            cancel();
        }
    }

    /** Stops without reading, deletes the file. Never throws. */
    public void cancel() {
        try {
            recording.close();
        } catch (RuntimeException e) {
            log.debug("Closing the wait recording failed: {}", e.toString());
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.debug("Cannot delete {}: {}", file, e.toString());
        }
    }

    private static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** What the wait was on, by its event and its stack. */
    static WaitKind kind(RecordedEvent e, List<Frame> framesRootFirst) {
        String type = e.getEventType().getName();
        switch (type) {
            case "jdk.ThreadSleep":
                return WaitKind.SLEEP;
            case "jdk.SocketRead", "jdk.SocketWrite", "jdk.FileRead", "jdk.FileWrite":
                return WaitKind.IO;
            case "jdk.JavaMonitorEnter":
                return WaitKind.LOCK;
            default:
                break;
        }
        if (pool(framesRootFirst)) {
            return WaitKind.POOL;
        }
        if (type.equals("jdk.ThreadPark") && e.hasField("parkedClass")) {
            RecordedClass parked = e.getValue("parkedClass");
            if (parked != null && lock(parked.getName())) {
                return WaitKind.LOCK;
            }
        }
        return WaitKind.OTHER;
    }

    /** A lock's synchronizer: {@code ReentrantLock$NonfairSync}, {@code ReentrantReadWriteLock$FairSync}, .... */
    static boolean lock(String parkedClass) {
        return parkedClass.startsWith("java.util.concurrent.locks.Reentrant")
                || parkedClass.startsWith("java.util.concurrent.locks.StampedLock");
    }

    /** A pool's or a queue's wait: the stack takes from a queue, acquires a semaphore or borrows from a pool. */
    static boolean pool(List<Frame> framesRootFirst) {
        for (int i = framesRootFirst.size() - 1; i >= 0; i--) {
            String name = framesRootFirst.get(i).name();
            String lower = name.toLowerCase(Locale.ROOT);
            if (name.startsWith("java.util.concurrent.Semaphore.acquire") || name.contains("BlockingQueue.take")
                    || name.contains("BlockingQueue.poll") || name.contains("BlockingDeque.take")
                    || name.contains("BlockingDeque.poll") || lower.contains("pool.getconnection")
                    || lower.contains("borrow")) {
                return true;
            }
        }
        return false;
    }
}
