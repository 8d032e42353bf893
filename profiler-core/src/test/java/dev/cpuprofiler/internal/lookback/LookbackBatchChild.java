package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.internal.trigger.Holds;
import dev.cpuprofiler.CpuProfilerStatus;

import dev.cpuprofiler.internal.engine.EngineLock;
import java.time.Clock;
import java.time.Duration;

/**
 * A "batch application" for {@link LookbackKeepsNoJvmAliveTest}: starts look-back with real JFR, waits until it
 * records, prints {@code recording} and returns from main without closing anything, as an application whose work
 * is done does. The JVM must then exit.
 */
public final class LookbackBatchChild {

    public static void main(String[] args) throws Exception {
        CpuProfilerOptions settings = TestRecorders.options(Duration.ofSeconds(30),
                new CpuProfilerOptions().getLookbackSamplingPeriod(), Duration.ofMillis(10), 512);
        // Threads as the profiler's factory makes them (named daemons); the JFR stream must not add a non-daemon.
        LookbackRecorder recorder = TestRecorders.alwaysArmed(settings, new Holds(),
                new JfrExecutionSampleSource(512, r -> new Thread(r, "cpuprofiler-lookback-stream")),
                new EngineLock(), Clock.systemUTC());
        LookbackTicks.every(recorder, LookbackRecorder.TICK, r -> {
            Thread t = new Thread(r, "cpuprofiler-lookback");
            t.setDaemon(true);
            return t;
        });
        recorder.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (recorder.status().state() != CpuProfilerStatus.LookbackState.ARMED && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        Thread.sleep(1_500);  // a flush or two: the stream is fully under way
        System.out.println(recorder.status().state() == CpuProfilerStatus.LookbackState.ARMED ? "recording" : "not recording");
    }
}
