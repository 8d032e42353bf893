package dev.cpuprofiler.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Run in a JVM of its own (JFR's depth is settled once per JVM): raises JFR's stack depth as the profiler does, then
 * samples a thread spinning 300 frames deep and prints what JFR kept.
 */
public final class JfrStackDepthMain {

    private static volatile boolean stop;
    private static volatile boolean atBottom;

    public static void main(String[] args) throws Exception {
        JfrStackDepth.State state = new JfrStackDepth().ensure(512);
        System.out.println("STATE " + state.inForce() + " " + state.raised() + " " + state.note().orElse("-"));
        Thread deep = new Thread(() -> recurse(300), "deep-burner");
        deep.setDaemon(true);
        deep.start();
        // On a busy machine the burner may not have run yet: a sample of it on its way down says nothing of depth.
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!atBottom && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Path file = Files.createTempFile("depth", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            recording.start();
            // Until JFR has sampled the burner a few times (1.5 s when the machine is quiet, longer when it is not).
            do {
                Thread.sleep(1500);
                recording.dump(file);
            } while (burnerSamples(file) < 10 && System.nanoTime() < deadline);
            recording.stop();
            recording.dump(file);
        }
        stop = true;
        int deepest = 0;
        boolean truncated = false;
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (isBurnerSample(e)) {
                deepest = Math.max(deepest, e.getStackTrace().getFrames().size());
                truncated |= e.getStackTrace().isTruncated();
            }
        }
        Files.deleteIfExists(file);
        System.out.println("SAMPLED " + deepest + " " + truncated);
    }

    private static long burnerSamples(Path file) throws IOException {
        return RecordingFile.readAllEvents(file).stream().filter(JfrStackDepthMain::isBurnerSample).count();
    }

    private static boolean isBurnerSample(RecordedEvent e) {
        return e.getEventType().getName().equals("jdk.ExecutionSample") && e.getThread("sampledThread") != null
                && "deep-burner".equals(e.getThread("sampledThread").getJavaName()) && e.getStackTrace() != null;
    }

    private static long recurse(int depth) {
        if (depth > 0) {
            return recurse(depth - 1) + 1;
        }
        atBottom = true;
        long x = 0;
        while (!stop) {
            x += Long.numberOfTrailingZeros(x * 31 + 7);
        }
        return x;
    }
}
