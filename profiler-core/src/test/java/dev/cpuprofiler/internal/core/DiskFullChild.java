package dev.cpuprofiler.internal.core;


import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionOutcome;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The application under a filling disk, in a JVM of its own whose {@code java.io.tmpdir} is a small filesystem: JFR's
 * repository and the profiler's work directory are there. Prints what the profiler did, then {@code ALIVE}: a JVM that
 * JFR stopped never gets there.
 *
 * <p>Modes: {@code full <engine>}: the disk is full before the profiler starts (look-back on, then an on-demand
 * profile is asked for); {@code fill <engine> <leaveMb>}: an on-demand profile records, and the application fills the
 * disk down to {@code leaveMb} free while it does.
 */
public final class DiskFullChild {

    private static volatile boolean stop;

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        Thread burner = new Thread(DiskFullChild::burn, "disk-test-burner");
        burner.setDaemon(true);
        burner.start();
        if (mode.equals("full")) {
            fill(tmp, 0);
        }
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setEngine(EngineChoice.fromId(args[1]));
        options.setLookback(Duration.ofSeconds(20));
        options.setThreshold(99);
        // The burner arms the look-back within half a second: above 5% of the threshold, no start-up grace, CPU
        // averaged over a quarter of a 2-second average window. It takes 30% of a core, 15% of the 2 CPUs: three
        // times the arming level, and the other test JVM keeps the rest of the core.
        options.setLookbackArmingRatio(0.05);
        options.setStartupGrace(Duration.ZERO);
        options.getReference().setEnabled(false); // the look-back's disk alone: a reference would record while calm
        options.setSamplingInterval(Duration.ofMillis(100));
        options.setRollingHistoryInterval(Duration.ofSeconds(1));
        options.setAverageWindow(Duration.ofSeconds(2));
        if (System.getProperty("floor") != null) {  // -Dfloor=0 turns the guard off: what happened without it
            options.setMinFreeDiskSpace(Long.parseLong(System.getProperty("floor")));
        }
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(options).build()) {
            profiler.start();
            // The look-back arms once it has half a second of CPU samples: about 1 s on a quiet machine, several on a
            // loaded one (a clean-clone CI run beside other builds once printed IDLE "waiting for 500 ms of CPU
            // samples" after a fixed 2.5 s). So wait, up to 15 s, until it has tried; "fill" mode wants it armed.
            // STOPPED and WAITING are no answer yet: the look-back starts on the profiler's start-up thread, after
            // JFR's stack depth is raised, and WAITING is the state while its try runs or another recording holds the
            // engine lock; beside other builds both took seconds ("LOOKBACK STOPPED null", "LOOKBACK WAITING null").
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            Thread.sleep(1000);
            while (untried(profiler.lookback().status().state()) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            System.out.println("LOOKBACK " + profiler.lookback().status().state() + " "
                    + profiler.lookback().status().reason());
            RunningSession session;
            try {
                session = profiler.startOnDemand(Duration.ofSeconds(mode.equals("full") ? 2 : 8));
            } catch (RuntimeException e) {
                System.out.println("REFUSED " + e.getMessage());
                System.out.println("DISK " + profiler.status().disk().problem());
                System.out.println("ALIVE");
                return;
            }
            System.out.println("STARTED " + session.engine());
            if (mode.equals("fill")) {
                Thread.sleep(2000);
                fill(tmp, Long.parseLong(args[2]) << 20);
                System.out.println("FILLED " + (Files.getFileStore(tmp).getUsableSpace() >> 20) + " MB free");
            }
            SessionOutcome outcome = session.outcome().toCompletableFuture().get(30, TimeUnit.SECONDS);
            System.out.println("OUTCOME " + outcome.status() + " " + outcome.reason());
            Profile p = profiler.store().latest().orElse(null);
            if (p != null) {
                System.out.println("PROFILE " + p.recording().samples() + " " + p.recording().duration().toMillis()
                        + " " + p.recording().notes());
            }
            System.out.println("DISK " + profiler.status().disk().problem());
        } finally {
            stop = true;
        }
        System.out.println("ALIVE");
    }

    private static boolean untried(CpuProfilerStatus.LookbackState state) {
        return state == CpuProfilerStatus.LookbackState.STOPPED || state == CpuProfilerStatus.LookbackState.IDLE
                || state == CpuProfilerStatus.LookbackState.WAITING;
    }

    /** Writes a file until {@code leave} bytes are free (0: until the disk refuses more). */
    private static void fill(Path dir, long leave) throws IOException {
        FileStore store = Files.getFileStore(dir);
        byte[] block = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(dir.resolve("ballast-" + System.nanoTime()))) {
            while (store.getUsableSpace() > leave + block.length) {
                out.write(block);
            }
            if (leave == 0) {
                while (true) {
                    out.write(block, 0, 4096);
                }
            }
        } catch (IOException e) {
            if (leave != 0) {
                throw e;
            }
        }
    }

    /** 3 ms of work in every 10, until stopped. */
    private static void burn() {
        long x = 0;
        try {
            while (!stop) {
                long until = System.nanoTime() + 3_000_000L;
                while (System.nanoTime() < until) {
                    x += Long.numberOfTrailingZeros(x * 31 + 7);
                }
                Thread.sleep(7);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        System.out.println(x == 42 ? "" : "");
    }
}
