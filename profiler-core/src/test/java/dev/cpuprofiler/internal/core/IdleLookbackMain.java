package dev.cpuprofiler.internal.core;


import dev.cpuprofiler.CpuProfilerOptions;

import dev.cpuprofiler.CpuProfilerStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Run in a JVM of its own (whether JFR ever started is a per-JVM fact): the profiler with every default but no
 * start-up grace and a 1-second look-back window, on this process's real CPU. Prints one line per phase:
 * {@code IDLE state=… jfr=… jfrThreads=…} after 5 calm seconds, {@code BUSY …} once two burning threads armed it,
 * {@code CALM …} after it disarmed again, with the look-back's state, whether JFR is initialised, and how many
 * {@code JFR } threads exist.
 */
public final class IdleLookbackMain {

    private static volatile long sink;

    public static void main(String[] args) throws Exception {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setStartupGrace(Duration.ZERO);
        options.setLookback(Duration.ofSeconds(1));
        options.setSamplingInterval(Duration.ofMillis(200));
        // A calm process is sampled at the polling interval: as often as the sampling interval here, so the arming
        // signal has its 3 s of samples within the 5 calm seconds.
        options.setPollingInterval(Duration.ofMillis(200));
        // Arms above 20% (0.25 of the 80% threshold): the two burners make 100% of 2 CPUs on a quiet machine, but
        // read 24% in a run beside two other busy JVMs, under the default 48%. Idle is 0.2-0.3%.
        options.setLookbackArmingRatio(0.25);
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(options).build()) {
            profiler.start();
            Thread.sleep(5000);
            print("IDLE", profiler);

            AtomicBoolean burning = new AtomicBoolean(true);
            List<Thread> burners = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Thread t = new Thread(() -> {
                    long x = 1;
                    while (burning.get()) {
                        x = x * 6364136223846793005L + 1442695040888963407L;
                    }
                    sink = x;
                }, "burner-" + i);
                t.setDaemon(true);
                t.start();
                burners.add(t);
            }
            await(profiler, CpuProfilerStatus.LookbackState.ARMED);
            print("BUSY", profiler);
            burning.set(false);
            for (Thread t : burners) {
                t.join();
            }
            await(profiler, CpuProfilerStatus.LookbackState.IDLE);
            print("CALM", profiler);
        }
    }

    private static void await(DefaultCpuProfiler profiler, CpuProfilerStatus.LookbackState state) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (profiler.status().lookback().state() != state && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    private static void print(String phase, DefaultCpuProfiler profiler) {
        long jfrThreads = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("JFR ")).count();
        System.out.println(phase + " state=" + profiler.status().lookback().state() + " jfr="
                + jdk.jfr.FlightRecorder.isInitialized() + " jfrThreads=" + jfrThreads + " samples="
                + profiler.status().lookback().samples() + " reason=" + profiler.status().lookback().reason());
    }
}
