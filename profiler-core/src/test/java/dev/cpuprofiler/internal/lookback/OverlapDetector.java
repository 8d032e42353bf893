package dev.cpuprofiler.internal.lookback;

import java.util.concurrent.atomic.AtomicInteger;

/** Counts samplers running at once; the most ever seen must stay 1. */
final class OverlapDetector {

    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger most = new AtomicInteger();

    void enter() {
        int now = active.incrementAndGet();
        most.accumulateAndGet(now, Math::max);
    }

    void exit() {
        active.decrementAndGet();
    }

    int mostAtOnce() {
        return most.get();
    }

    int active() {
        return active.get();
    }
}
