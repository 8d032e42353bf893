package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.stack.Frame;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/** A look-back sink that keeps when each sample was taken and of which thread, to see what arrived around an instant. */
final class SampleLog implements LookbackSource.Sink {

    /**
     * One thread's samples around an instant.
     *
     * @param lastSecond the thread's samples in the second before it
     * @param secondBefore in the second before that
     * @param after samples of any thread stamped at or after it
     * @param newestGapMillis how long before it the thread's newest sample was taken, -1 without one
     */
    record Around(long lastSecond, long secondBefore, long after, long newestGapMillis) {
    }

    private record Sample(Instant at, String thread) {
    }

    private final ConcurrentLinkedQueue<Sample> samples = new ConcurrentLinkedQueue<>();

    @Override
    public void accept(Instant sampledAt, List<Frame> framesRootFirst, String threadName, Duration period) {
        samples.add(new Sample(sampledAt, threadName));
    }

    long count() {
        return samples.size();
    }

    boolean isEmpty() {
        return samples.isEmpty();
    }

    Around around(Instant at, String thread) {
        long last = 0;
        long before = 0;
        long after = 0;
        Instant newest = Instant.MIN;
        for (Sample s : samples) {
            if (!s.at().isBefore(at)) {
                after++;
            } else if (thread.equals(s.thread())) {
                newest = s.at().isAfter(newest) ? s.at() : newest;
                if (!s.at().isBefore(at.minusSeconds(1))) {
                    last++;
                } else if (!s.at().isBefore(at.minusSeconds(2))) {
                    before++;
                }
            }
        }
        return new Around(last, before, after, newest == Instant.MIN ? -1 : Duration.between(newest, at).toMillis());
    }
}
