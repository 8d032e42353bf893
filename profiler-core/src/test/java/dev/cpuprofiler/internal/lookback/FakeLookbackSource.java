package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.stack.Frame;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A look-back sampler driven by the test: {@link #sample} delivers while a recording runs. */
final class FakeLookbackSource implements LookbackSource {

    private final OverlapDetector detector;
    private volatile String refusal;
    private volatile String failure;
    final AtomicInteger starts = new AtomicInteger();
    final AtomicInteger stops = new AtomicInteger();
    private volatile Duration effectivePeriod;
    private FakeRecording current;

    FakeLookbackSource(OverlapDetector detector) {
        this(detector, null);
    }

    private FakeLookbackSource(OverlapDetector detector, String refusal) {
        this.detector = detector;
        this.refusal = refusal;
    }

    static FakeLookbackSource refusing(String reason) {
        return new FakeLookbackSource(new OverlapDetector(), reason);
    }

    @Override
    public String description() {
        return "fake samples";
    }

    @Override
    public synchronized Recording start(Duration period, LookbackSource.Sink sink)
            throws LookbackSource.UnavailableException {
        if (refusal != null) {
            throw new LookbackSource.UnavailableException(refusal);
        }
        starts.incrementAndGet();
        failure = null;
        detector.enter();
        current = new FakeRecording(period, sink);
        return current;
    }

    /** Takes one sample if recording; returns whether it was taken. */
    synchronized boolean sample(Instant at, List<Frame> frames, String thread) {
        if (current == null || current.stopped) {
            return false;
        }
        current.sink.accept(at, frames, thread);
        return true;
    }

    synchronized boolean isRecording() {
        return current != null && !current.stopped;
    }

    /** From now on, starts are refused with this reason (null: allowed again). */
    void refuse(String reason) {
        refusal = reason;
    }

    /** The running recording reports that it must end (as when the disk under it fills). */
    void failRunning(String reason) {
        failure = reason;
    }

    /** As if another JFR recording imposed a finer period. */
    void imposePeriod(Duration period) {
        effectivePeriod = period;
    }

    private final class FakeRecording implements Recording {

        private final Duration period;
        private final LookbackSource.Sink sink;
        private boolean stopped;

        FakeRecording(Duration period, LookbackSource.Sink sink) {
            this.period = period;
            this.sink = sink;
        }

        @Override
        public Duration effectivePeriod() {
            Duration imposed = effectivePeriod;
            return imposed != null ? imposed : period;
        }

        @Override
        public java.util.Optional<String> failure() {
            return java.util.Optional.ofNullable(failure);
        }

        @Override
        public void stop() {
            end();
        }

        @Override
        public void cancel() {
            end();
        }

        private void end() {
            synchronized (FakeLookbackSource.this) {
                if (!stopped) {
                    stopped = true;
                    stops.incrementAndGet();
                    detector.exit();
                }
            }
        }
    }
}
