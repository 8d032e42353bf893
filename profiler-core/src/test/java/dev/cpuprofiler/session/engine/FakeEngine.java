package dev.cpuprofiler.session.engine;

import dev.cpuprofiler.stack.Frame;
import dev.cpuprofiler.stack.StackSink;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** An engine that refuses with a reason, throws, or records one sample, as a test needs. */
final class FakeEngine implements ProfilingEngine {

    private final String id;
    private final String refusal;
    private final RuntimeException crash;
    final AtomicInteger starts = new AtomicInteger();

    private FakeEngine(String id, String refusal, RuntimeException crash) {
        this.id = id;
        this.refusal = refusal;
        this.crash = crash;
    }

    static FakeEngine working(String id) {
        return new FakeEngine(id, null, null);
    }

    static FakeEngine refusing(String id, String reason) {
        return new FakeEngine(id, reason, null);
    }

    static FakeEngine crashing(String id, RuntimeException crash) {
        return new FakeEngine(id, null, crash);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public EngineRecording start(EngineSettings settings, StackSink sink) throws EngineUnavailableException {
        starts.incrementAndGet();
        if (refusal != null) {
            throw new EngineUnavailableException(id, refusal);
        }
        if (crash != null) {
            throw crash;
        }
        return new EngineRecording() {
            private RecordingResult result;

            @Override
            public String engineId() {
                return id;
            }

            @Override
            public synchronized long samplesSoFar() {
                return result == null ? 0 : 1;
            }

            @Override
            public synchronized RecordingResult stop() {
                if (result == null) {
                    sink.accept(List.of(Frame.java("Fake.run")), "fake", 1);
                    result = new RecordingResult(id, "fake", 1, 0, null, List.of(), List.of());
                }
                return result;
            }

            @Override
            public void cancel() {
            }
        };
    }
}
