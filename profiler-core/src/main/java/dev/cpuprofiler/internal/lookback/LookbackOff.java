package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerStatus;

import java.util.Optional;

/** {@link Lookback#off()}: stateless, so one shared instance. */
final class LookbackOff implements Lookback {

    static final LookbackOff INSTANCE = new LookbackOff();

    private LookbackOff() {
    }

    @Override
    public void start() {
    }

    @Override
    public Optional<LookbackHandOver> handOver() {
        return Optional.empty();
    }

    @Override
    public void resume() {
    }

    @Override
    public CpuProfilerStatus.Lookback status() {
        return CpuProfilerStatus.Lookback.OFF;
    }

    @Override
    public void close() {
    }
}
