package dev.cpuprofiler.engine;

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

    public static void main(String[] args) throws Exception {
        JfrStackDepth.State state = new JfrStackDepth().ensure(512);
        System.out.println("STATE " + state.inForce() + " " + state.raised() + " " + state.note().orElse("-"));
        Thread deep = new Thread(() -> recurse(300), "deep-burner");
        deep.setDaemon(true);
        deep.start();
        Path file = Files.createTempFile("depth", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            recording.start();
            Thread.sleep(1500);
            recording.stop();
            recording.dump(file);
        }
        stop = true;
        int deepest = 0;
        boolean truncated = false;
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals("jdk.ExecutionSample") && e.getThread("sampledThread") != null && "deep-burner".equals(e.getThread("sampledThread").getJavaName())
                    && e.getStackTrace() != null) {
                deepest = Math.max(deepest, e.getStackTrace().getFrames().size());
                truncated |= e.getStackTrace().isTruncated();
            }
        }
        Files.deleteIfExists(file);
        System.out.println("SAMPLED " + deepest + " " + truncated);
    }

    private static long recurse(int depth) {
        if (depth > 0) {
            return recurse(depth - 1) + 1;
        }
        long x = 0;
        while (!stop) {
            x += Long.numberOfTrailingZeros(x * 31 + 7);
        }
        return x;
    }
}
