package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.RunningSession;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A fresh JVM (JDK 21+) that asks for an on-demand profile from a virtual thread, as a request of a Spring MVC
 * application with {@code spring.threads.virtual.enabled=true} does, with the engine named by {@code args[0]}.
 * Prints {@code STARTED}, {@code PROFILE <engine> <samples>} or {@code FAILED <why>}.
 */
public final class OnDemandFromVirtualThreadChild {

    private OnDemandFromVirtualThreadChild() {
    }

    public static void main(String[] args) throws Exception {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setEnabled(false);
        options.setLookback(Duration.ZERO);
        options.setEngine(EngineChoice.fromId(args[0]));
        try (CpuProfiler profiler = CpuProfiler.builder(options)
                .workDirectory(Files.createTempDirectory("cpuprofiler-vt")).build()) {
            profiler.start();
            AtomicReference<Object> answer = new AtomicReference<>();
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Thread request = (Thread) Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class)
                    .invoke(builder, (Runnable) () -> {
                        try {
                            answer.set(profiler.startOnDemand(Duration.ofSeconds(1)));
                        } catch (RuntimeException e) {
                            answer.set(e);
                        }
                    });
            request.start();
            request.join(30_000);
            if (!(answer.get() instanceof RunningSession session)) {
                System.out.println("FAILED " + answer.get());
                return;
            }
            System.out.println("STARTED " + session.id());
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (profiler.profile(session.id()).isEmpty() && System.nanoTime() < deadline) {
                long x = 0;
                for (int i = 0; i < 5_000_000; i++) {
                    x += i * 31L ^ x;
                }
                if (x == 42) {
                    System.out.print("");
                }
            }
            Profile profile = profiler.profile(session.id()).orElse(null);
            System.out.println(profile == null ? "FAILED no profile stored"
                    : "PROFILE " + profile.recording().engine() + " " + profile.recording().samples() + " fallbacks="
                            + profile.recording().fallbacks());
        }
    }
}
