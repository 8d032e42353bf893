package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Not a test: how a look-back stream gives way to a session, over many rounds, with real JFR. Each round starts the
 * source, lets one thread burn, waits 1.2 to 2.2 s (so the hand-over falls anywhere between two flushes), then calls
 * {@code handOver()} (and waits for its stage) or {@code stop()}, and, with {@code session}, starts a recording of the
 * same event at 10 ms right after, as a session's engine does. Printed per round and as medians: how long the call
 * took, when the samples were all delivered, the busy thread's samples in the last second before the call over those
 * in the second before (1.0: none missing), how far before the call the newest sample was, look-back samples stamped
 * after the call, and the session's samples the look-back's stream could have taken.
 *
 * <pre>
 * java -cp profiler-core/target/classes:profiler-core/target/test-classes:$(cat cp.txt) \
 *   dev.cpuprofiler.internal.lookback.LookbackHandOverMeasure execution|cpu-time handover|stop [session] [rounds]
 * </pre>
 */
public final class LookbackHandOverMeasure {

    private static final Duration PERIOD = Duration.ofMillis(20);
    private static final String BUSY = "busy";

    private static volatile boolean working = true;
    private static volatile long blackhole;

    public static void main(String[] args) throws Exception {
        JfrSampleEvent event = args[0].equals("cpu-time") ? JfrSampleEvent.CPU_TIME : JfrSampleEvent.EXECUTION;
        boolean handOver = args[1].equals("handover");
        boolean session = args.length > 2 && args[2].equals("session");
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 15;
        Thread busy = new Thread(LookbackHandOverMeasure::work, BUSY);
        busy.setDaemon(true);
        busy.start();
        SplittableRandom random = new SplittableRandom(7);
        List<Double> callMs = new ArrayList<>();
        List<Double> deliveredMs = new ArrayList<>();
        List<Double> lastOverBefore = new ArrayList<>();
        List<Double> newestGapMs = new ArrayList<>();
        long after = 0;
        long sessionWhileOpen = 0;
        System.out.printf("Java %s, %s, %s%s, %d rounds%n", Runtime.version(), event.name, args[1],
                session ? " + a session recording started right after" : "", rounds);
        for (int round = 0; round < rounds; round++) {
            SampleLog samples = new SampleLog();
            LookbackSource source = event == JfrSampleEvent.CPU_TIME
                    ? new JfrCpuTimeSampleSource(512, daemon(), DiskSpaceGuard.auto())
                    : new JfrExecutionSampleSource(512, daemon(), DiskSpaceGuard.auto());
            LookbackSource.Recording recording = source.start(PERIOD, samples);
            while (samples.isEmpty()) {
                Thread.sleep(20);
            }
            Thread.sleep(1_200 + random.nextInt(1_000));

            Instant at = Instant.now();
            long t0 = System.nanoTime();
            Recording sessionRecording = null;
            if (handOver) {
                var stage = recording.handOver();
                callMs.add((System.nanoTime() - t0) / 1e6);
                sessionRecording = session ? startSession(event) : null;
                stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
            } else {
                recording.stop();
                callMs.add((System.nanoTime() - t0) / 1e6);
                sessionRecording = session ? startSession(event) : null;
            }
            double done = (System.nanoTime() - t0) / 1e6;
            Instant deliveredAt = Instant.now();
            deliveredMs.add(done);
            long sessionSamples = sessionRecording == null ? 0 : sessionSamples(sessionRecording, event, at,
                    deliveredAt);
            recording.cancel();

            SampleLog.Around a = samples.around(at, BUSY);
            double ratio = a.secondBefore() == 0 ? Double.NaN : (double) a.lastSecond() / a.secondBefore();
            double gap = a.newestGapMillis();
            lastOverBefore.add(ratio);
            newestGapMs.add(gap);
            after += a.after();
            sessionWhileOpen += sessionSamples;
            System.out.printf("round %2d: call %7.2f ms, delivered after %6.0f ms, last second %3d / second before %3d"
                            + " = %.2f, newest %3.0f ms before, stamped after %d, session samples while open %d%n",
                    round + 1, callMs.get(round), done, a.lastSecond(), a.secondBefore(), ratio, gap, a.after(),
                    sessionSamples);
        }
        working = false;
        System.out.printf("%nmedian: call %.2f ms (max %.2f), delivered after %.0f ms (max %.0f), last/before %.2f "
                        + "(min %.2f), newest %.0f ms before (max %.0f); stamped after, all rounds: %d; session "
                        + "samples the stream could have taken: %d%n", median(callMs), max(callMs),
                median(deliveredMs), max(deliveredMs), median(lastOverBefore), min(lastOverBefore),
                median(newestGapMs), max(newestGapMs), after, sessionWhileOpen);
    }

    private static Recording startSession(JfrSampleEvent event) {
        Recording r = new Recording();
        if (event == JfrSampleEvent.CPU_TIME) {
            r.enable(event.name).with("throttle", "10ms").withStackTrace();
        } else {
            r.enable(event.name).withPeriod(Duration.ofMillis(10)).withStackTrace();
        }
        r.start();
        return r;
    }

    /** The session's samples of the busy thread between the call and the look-back's end; closes the session. */
    private static long sessionSamples(Recording r, JfrSampleEvent event, Instant from, Instant to) throws Exception {
        r.stop();
        Path file = Files.createTempFile("session", ".jfr");
        try {
            r.dump(file);
            long n = 0;
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                RecordedThread t = e.getEventType().getName().equals(event.name) ? event.threadOf(e) : null;
                if (t != null && BUSY.equals(t.getJavaName()) && !e.getStartTime().isBefore(from)
                        && e.getStartTime().isBefore(to)) {
                    n++;
                }
            }
            return n;
        } finally {
            r.close();
            Files.deleteIfExists(file);
        }
    }

    private static void work() {
        long x = 1;
        while (working) {
            x += Workloads.crunch(200_000, x);
        }
        blackhole = x;
    }

    private static java.util.concurrent.ThreadFactory daemon() {
        return r -> {
            Thread t = new Thread(r, "lookback-stream");
            t.setDaemon(true);
            return t;
        };
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(d -> d).filter(d -> !Double.isNaN(d)).sorted().toArray();
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(d -> d).filter(d -> !Double.isNaN(d)).min().orElse(Double.NaN);
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(d -> d).filter(d -> !Double.isNaN(d)).max().orElse(Double.NaN);
    }
}
