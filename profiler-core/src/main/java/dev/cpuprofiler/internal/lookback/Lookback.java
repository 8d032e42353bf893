package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerStatus;

import java.util.Optional;

/**
 * A rolling record of recent stack samples, kept while monitoring so a CPU-triggered profile can show the burst that
 * raised the average as well as what follows. It records only while no session does: whoever starts a session calls
 * {@link #handOver()} first (which also hands over what it holds) and {@link #resume()} once the session has ended.
 */
public interface Lookback extends AutoCloseable {

    /** Starts: idle until the CPU arms it (or recording at once when always armed). Idempotent. */
    void start();

    /**
     * Stops recording and frees the engine lock at once, for a session whose engine starts right after: no gap
     * between the look-back's last sample and the session's first but the engine's own start-up. The samples come
     * with {@link LookbackHandOver#snapshot()}.
     *
     * @return the hand-over; empty when look-back is off, not started or closed
     */
    Optional<LookbackHandOver> handOver();

    /**
     * May record again after a session: at once when the CPU arms it (or always armed) and the trigger's holds let it,
     * else once they do: after a CPU-triggered session, from one window before its cooldown ends, so the window is
     * full when the trigger can fire again and nothing is sampled for hours in between. Nothing once the profiler
     * shuts down.
     */
    void resume();

    CpuProfilerStatus.Lookback status();

    /**
     * Whether the CPU (the process's, or one thread's) is rising above its normal now, by the look-back's own arming
     * rule, whatever the look-back does: armed by it, or it would be, were it not stepped aside for a session or held
     * back by the trigger's holds. No calm moment for a reference of normal. False when the look-back is off. Read on
     * the CPU sampler's thread, which feeds it.
     */
    default boolean rising() {
        return false;
    }

    /** Stops for good and frees the engine lock. Idempotent. */
    @Override
    void close();

    /** Look-back switched off: records nothing, never holds the engine lock. */
    static Lookback off() {
        return Off.INSTANCE;
    }

    /** {@link #off()}: stateless, so one shared instance. */
    final class Off implements Lookback {

        static final Off INSTANCE = new Off();

        private Off() {
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
}
