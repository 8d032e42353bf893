package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.EngineChoice;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Run in a JVM of its own by {@link SigprofConflictTest}: async-profiler records first, then jfr-cpu-time is asked
 * to start. That order leaves JFR's CPU-time sampler silent for the JVM's lifetime, which must show as a refusal
 * (and an auto fallback), not as an empty profile. Prints {@code REFUSED <reason>} or {@code STARTED}, then
 * {@code AUTO <engine> <fallbacks>}.
 */
public final class SigprofConflictChild {

    private SigprofConflictChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("sigprof-conflict");
        EngineSettings settings = EngineSettings.of(Duration.ofMillis(10), 64, dir);
        EngineRecording first = new AsyncProfilerEngine().start(settings, new CollectingSink());
        Thread.sleep(300);
        first.stop();

        try {
            new JfrCpuTimeEngine().start(settings, new CollectingSink()).cancel();
            System.out.println("STARTED");
        } catch (EngineUnavailableException e) {
            System.out.println("REFUSED " + e.reason());
        }
        EngineSelector selector = new EngineSelector(EngineSelector.standardEngines(), new EngineLock());
        EngineRecording.Result auto = selector.start(EngineChoice.AUTO, settings, new CollectingSink()).stop();
        System.out.println("AUTO " + auto.engineId() + " " + auto.fallbacks().stream()
                .map(Profile.EngineFallback::engineId).toList());
        for (Path p : List.of(first.stop().jfrFile(), auto.jfrFile())) {
            Files.deleteIfExists(p);
        }
        try (var files = Files.list(dir)) {
            files.forEach(p -> p.toFile().delete());
        }
        Files.deleteIfExists(dir);
    }
}
