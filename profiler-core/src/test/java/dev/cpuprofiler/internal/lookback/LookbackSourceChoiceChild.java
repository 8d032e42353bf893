package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.EngineLock;
import dev.cpuprofiler.internal.engine.EngineSelector;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.JfrPeriodicTaskKeeper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.FlightRecorder;

/**
 * Run in a JVM of its own by {@link LookbackSourceChoiceTest}, where JFR's state is this JVM's alone. Prints
 * {@code CHOSE <reason>} and {@code JFR_INITIALIZED <true|false>} right after choosing for {@code auto}. With
 * {@code after-async-profiler}, async-profiler records first (on JDK 25 that leaves JFR's CPU-time sampler silent for
 * the JVM's life), then the chosen source starts and one thread burns: prints {@code SOURCE <description>} and
 * {@code SAMPLES <n>}.
 */
public final class LookbackSourceChoiceChild {

    private static volatile long blackhole;

    private LookbackSourceChoiceChild() {
    }

    public static void main(String[] args) throws Exception {
        boolean afterAsyncProfiler = args.length > 0 && args[0].equals("after-async-profiler");
        Path dir = Files.createTempDirectory("lookback-choice");
        if (afterAsyncProfiler) {
            EngineSelector engines = new EngineSelector(EngineSelector.standardEngines(), new EngineLock());
            var first = engines.start(EngineChoice.ASYNC_PROFILER, EngineSettings.of(Duration.ofMillis(10), 64, dir),
                    (frames, thread, weight) -> { });
            Thread.sleep(300);
            var result = first.stop();
            if (result.jfrFile() != null) {
                Files.deleteIfExists(result.jfrFile());
            }
        }
        LookbackSourceChoice choice = LookbackSourceChoice.choose(EngineChoice.AUTO, 64, r -> new Thread(r, "stream"),
                DiskSpaceGuard.auto(), JfrPeriodicTaskKeeper.none());
        System.out.println("CHOSE " + choice.reason());
        System.out.println("JFR_INITIALIZED " + FlightRecorder.isInitialized());
        if (afterAsyncProfiler) {
            AtomicLong samples = new AtomicLong();
            LookbackSource.Recording recording = choice.source().start(Duration.ofMillis(20),
                    (Instant at, List<dev.cpuprofiler.internal.stack.Frame> frames, String thread, Duration period) -> {
                        if ("burner".equals(thread)) {
                            samples.incrementAndGet();
                        }
                    });
            Thread burner = new Thread(() -> blackhole = Workloads.crunch(400_000_000L, 1), "burner");
            burner.start();
            burner.join();
            recording.stop();
            System.out.println("SOURCE " + choice.source().description());
            System.out.println("SAMPLES " + samples.get());
        }
        try (var files = Files.list(dir)) {
            files.forEach(p -> p.toFile().delete());
        }
        Files.deleteIfExists(dir);
    }
}
