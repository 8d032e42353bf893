package dev.cpuprofiler.internal.testing;

import dev.cpuprofiler.internal.cpu.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** One hand-driven time for tests: a monotonic ticker and a wall clock that move together. */
public final class FakeTime extends Clock implements Ticker {

    private final Instant origin;
    private volatile long nanos;

    public FakeTime() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    public FakeTime(Instant origin) {
        this.origin = origin;
    }

    public void advance(Duration d) {
        nanos += d.toNanos();
    }

    public long elapsedNanos() {
        return nanos;
    }

    @Override
    public long nanoTime() {
        return nanos;
    }

    @Override
    public Instant instant() {
        return origin.plusNanos(nanos);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
