package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.ProfilingEngine;
import dev.cpuprofiler.internal.stack.StackSink;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** A session engine that records nothing but reports to the overlap detector while it "records". */
final class FakeSessionEngine implements ProfilingEngine {

    static final String ID = "jfr-execution";

    private final OverlapDetector detector;

    FakeSessionEngine(OverlapDetector detector) {
        this.detector = detector;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public EngineRecording start(EngineSettings settings, StackSink sink) {
        detector.enter();
        AtomicBoolean ended = new AtomicBoolean();
        return new EngineRecording() {
            @Override
            public String engineId() {
                return ID;
            }

            @Override
            public long samplesSoFar() {
                return 0;
            }

            @Override
            public EngineRecording.Result stop() {
                end();
                return new EngineRecording.Result(ID, "fake", 0, 0, null, List.of(), List.of());
            }

            @Override
            public void cancel() {
                end();
            }

            private void end() {
                if (ended.compareAndSet(false, true)) {
                    detector.exit();
                }
            }
        };
    }
}
