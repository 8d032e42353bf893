package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.internal.engine.JfrPeriodicTaskKeeper;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.FlightRecorder;

/**
 * Run in a JVM of its own (whether JFR ever started is a per-JVM fact): the profiler with every default but no
 * start-up grace and a 1-second look-back window, on this process's real CPU. Prints one line per phase:
 * {@code IDLE state=… jfr=… jfrThreads=…} after 5 calm seconds, {@code BUSY …} once two burning threads armed it,
 * {@code CALM …} after it disarmed again, with the look-back's state, whether JFR is initialised, and how many
 * {@code JFR } threads exist; after IDLE and after CALM, {@code IDLE-PERIODIC}/{@code PERIODIC wakeups=… java=…
 * keeper=…}, how often JFR's periodic thread woke in the next 2 s and whether the recording that keeps it asleep is open, and {@code CLOSED keeper=…} once the profiler
 * is closed.
 */
public final class IdleLookbackChild {

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
        options.getReference().setEnabled(false); // the look-back's idle alone: a reference would record while calm
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(options).build()) {
            profiler.start();
            Thread.sleep(5000);
            print("IDLE", profiler);
            printPeriodicThread("IDLE-PERIODIC");

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
            Thread.sleep(1000);  // past the pass the recording's end caused
            printPeriodicThread("PERIODIC");
        }
        System.out.println("CLOSED keeper=" + keeperOpen());
    }

    /**
     * JFR's periodic thread now that the look-back's recording has ended: its wake-ups over 2 s (JDK 17 without the
     * keeper: about 200, its 10-ms nap; with it: about 2) and whether the keeping recording is open.
     */
    private static void printPeriodicThread(String phase) throws Exception {
        long before = periodicThreadSwitches();
        Thread.sleep(2000);
        System.out.println(phase + " wakeups=" + (periodicThreadSwitches() - before) + " java="
                + Runtime.version().feature() + " keeper=" + keeperOpen());
    }

    private static boolean keeperOpen() {
        return FlightRecorder.isInitialized() && FlightRecorder.getFlightRecorder().getRecordings().stream()
                .anyMatch(r -> r.getName().equals(JfrPeriodicTaskKeeper.RECORDING_NAME));
    }

    /** Voluntary context switches of "JFR Periodic Tasks" (one per nap it wakes from), -1 without /proc. */
    private static long periodicThreadSwitches() throws IOException {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return -1;
        }
        try (DirectoryStream<Path> all = Files.newDirectoryStream(tasks)) {
            for (Path task : all) {
                try {
                    if (Files.readString(task.resolve("comm")).trim().equals("JFR Periodic Ta")) {
                        for (String line : Files.readAllLines(task.resolve("status"))) {
                            if (line.startsWith("voluntary_ctxt_switches:")) {
                                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                            }
                        }
                    }
                } catch (NoSuchFileException ended) {
                    // a thread that ended between the listing and the read
                }
            }
        }
        return -1;
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
