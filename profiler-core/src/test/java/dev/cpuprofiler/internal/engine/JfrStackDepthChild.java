package dev.cpuprofiler.internal.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SortedMap;
import java.util.TreeMap;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Run in a JVM of its own (JFR's depth is settled once per JVM): raises JFR's stack depth as the profiler does, then
 * samples a thread spinning 300 frames deep and prints what JFR kept.
 */
public final class JfrStackDepthChild {

    private static volatile boolean stop;
    private static volatile boolean atBottom;

    public static void main(String[] args) throws Exception {
        JfrSetup.State state = new JfrSetup().ensure(512);
        System.out.println("STATE " + state.inForce() + " " + state.raised() + " " + state.note().orElse("-"));
        String configuration = String.valueOf(java.lang.management.ManagementFactory.getPlatformMBeanServer().invoke(
                new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "jfrConfigure",
                new Object[] {new String[0]}, new String[] {String[].class.getName()}));
        configuration.lines().filter(l -> l.startsWith("Global buffer count:")).forEach(l -> System.out.println(
                "BUFFERS " + l.substring("Global buffer count:".length()).strip()));
        Thread deep = new Thread(() -> recurse(300), "deep-burner");
        deep.setDaemon(true);
        deep.start();
        // On a busy machine the burner may not have run yet: a sample of it on its way down says nothing of depth.
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        while (!atBottom && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Path file = Files.createTempFile("depth", ".jfr");
        Sampled sampled;
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            recording.start();
            // Until JFR has sampled the burner 10 times and one sample shows its bottom (or JFR's cut): 1.5 s when
            // the machine is quiet. One CI run on a loaded machine kept only 2 frames of every sample it took.
            do {
                Thread.sleep(1500);
                recording.dump(file);
                sampled = Sampled.of(file);
            } while (!sampled.settled() && System.nanoTime() < deadline);
            recording.stop();
        }
        stop = true;
        Files.deleteIfExists(file);
        // JFR's own native memory, what the buffer count sets (with -XX:NativeMemoryTracking=summary only).
        String nmt = String.valueOf(java.lang.management.ManagementFactory.getPlatformMBeanServer().invoke(
                new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "vmNativeMemory",
                new Object[] {new String[] {"summary"}}, new String[] {String[].class.getName()}));
        java.util.regex.Matcher tracing = java.util.regex.Pattern.compile("Tracing \\(reserved=\\d+KB, committed=(\\d+)KB")
                .matcher(nmt);
        if (tracing.find()) {
            System.out.println("TRACING " + tracing.group(1));
        }
        System.out.println("SAMPLED " + sampled.deepest + " " + sampled.truncated + " bottom=" + atBottom
                + " samples=" + sampled.count + " depths=" + sampled.depths);
    }

    /** The burner's samples in a dump: how many, the deepest, whether JFR cut one, and each depth seen. */
    private record Sampled(int count, int deepest, boolean truncated, SortedMap<Integer, Integer> depths) {

        static Sampled of(Path file) throws IOException {
            SortedMap<Integer, Integer> depths = new TreeMap<>();
            boolean truncated = false;
            int count = 0;
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                if (isBurnerSample(e)) {
                    count++;
                    depths.merge(e.getStackTrace().getFrames().size(), 1, Integer::sum);
                    truncated |= e.getStackTrace().isTruncated();
                }
            }
            return new Sampled(count, depths.isEmpty() ? 0 : depths.lastKey(), truncated, depths);
        }

        boolean settled() {
            return count >= 10 && (deepest >= 300 || truncated);
        }
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
