package dev.cpuprofiler.internal.testing;

import dev.cpuprofiler.internal.core.DefaultCpuProfiler;

import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.EngineUnavailableException;
import dev.cpuprofiler.internal.engine.ProfilingEngine;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackSink;
import java.io.IOException;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An engine that does, at each start, what the test scripted: records one sample of {@code Scripted.run}, refuses
 * with a reason, crashes, fails or hangs when stopped. Tests hand it to {@code DefaultCpuProfiler.builder(...).engines(...)}
 * or an {@code EngineSelector}, so the sessions, the lock and the policy around it are the production ones.
 */
public final class ScriptedEngine implements ProfilingEngine {

    /** What one recording does. */
    public enum Behaviour { WORK, REFUSE, CRASH_AT_START, FAIL_AT_STOP, HANG_AT_STOP }

    public static final String FRAME = "Scripted.run";

    private final String id;
    private final String refusal;
    private final RuntimeException crash;
    private final Queue<Behaviour> script = new ConcurrentLinkedQueue<>();
    private volatile Behaviour otherwise;
    /** How many times a recording was asked for, refusals and crashes included. */
    public final AtomicInteger starts = new AtomicInteger();
    /** Counted down when a HANG_AT_STOP recording is stopped; {@link #unhang} lets it return. */
    public final CountDownLatch stopEntered = new CountDownLatch(1);
    public final CountDownLatch unhang = new CountDownLatch(1);
    private volatile EngineSettings lastSettings;

    private ScriptedEngine(String id, Behaviour otherwise, String refusal, RuntimeException crash) {
        this.id = id;
        this.otherwise = otherwise;
        this.refusal = refusal;
        this.crash = crash;
    }

    /** As the real engine of that name: async-profiler's samples name a virtual thread's carrier. */
    @Override
    public boolean seesVirtualThreads() {
        return !"async-profiler".equals(id);
    }

    public static ScriptedEngine working(String id) {
        return new ScriptedEngine(id, Behaviour.WORK, null, null);
    }

    public static ScriptedEngine refusing(String id, String reason) {
        return new ScriptedEngine(id, Behaviour.REFUSE, reason, null);
    }

    public static ScriptedEngine crashing(String id, RuntimeException crash) {
        return new ScriptedEngine(id, Behaviour.CRASH_AT_START, null, crash);
    }

    /** The next recordings, in order; after them, what {@link #next} said last (or the engine's kind). */
    public ScriptedEngine then(Behaviour... behaviours) {
        script.addAll(List.of(behaviours));
        return this;
    }

    /** What every later recording does. */
    public void next(Behaviour behaviour) {
        script.clear();
        otherwise = behaviour;
    }

    /** The settings of the latest start (sampling period, work directory, ...). */
    public EngineSettings lastSettings() {
        return lastSettings;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public EngineRecording start(EngineSettings settings, StackSink sink) throws EngineUnavailableException {
        starts.incrementAndGet();
        lastSettings = settings;
        Behaviour scripted = script.poll();
        Behaviour b = scripted != null ? scripted : otherwise;
        switch (b) {
            case REFUSE -> throw new EngineUnavailableException(id, refusal != null ? refusal : "scripted refusal");
            case CRASH_AT_START -> throw crash != null ? crash : new IllegalStateException("engine exploded");
            default -> { }
        }
        return new EngineRecording() {
            private EngineRecording.Result result;

            @Override
            public String engineId() {
                return id;
            }

            @Override
            public synchronized long samplesSoFar() {
                return result == null ? 0 : 1;
            }

            @Override
            public EngineRecording.Result stop() {
                if (b == Behaviour.FAIL_AT_STOP) {
                    throw new EngineRecording.FailureException("scripted could not write its file",
                            new IOException("No space left on device"));
                }
                if (b == Behaviour.HANG_AT_STOP) {
                    stopEntered.countDown();
                    try {
                        unhang.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                synchronized (this) {
                    if (result == null) {
                        sink.accept(List.of(Frame.java(FRAME)), "scripted", 1);
                        result = new EngineRecording.Result(id, "scripted", 1, 0, null, List.of(), List.of());
                    }
                    return result;
                }
            }

            @Override
            public void cancel() {
            }
        };
    }
}
