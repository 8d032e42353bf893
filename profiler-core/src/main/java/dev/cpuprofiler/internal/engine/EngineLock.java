package dev.cpuprofiler.internal.engine;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Lets one recording run at a time. An ordinary object: whoever wires the engines owns one and hands it to every
 * {@link EngineSelector} that must not overlap (two engines that both use SIGPROF break each other).
 */
public final class EngineLock {

    private final AtomicReference<Lease> holder = new AtomicReference<>();

    /**
     * Takes the lock if free; never waits.
     *
     * @param description who holds it, for the message a refused caller sees
     * @return the lease, or empty when another recording holds the lock
     */
    public Optional<Lease> tryAcquire(String description) {
        Lease lease = new Lease(description);
        return holder.compareAndSet(null, lease) ? Optional.of(lease) : Optional.empty();
    }

    /** Whether a recording holds the lock now: one volatile read, for the CPU sampler's every quiet tick. */
    public boolean held() {
        return holder.get() != null;
    }

    /** Who holds the lock now, if anyone. */
    public Optional<String> holder() {
        return Optional.ofNullable(holder.get()).map(Lease::description);
    }

    /** One holding of the lock. Releasing twice is harmless and never releases someone else's lease. */
    public final class Lease {

        private final String description;
        private final AtomicBoolean released = new AtomicBoolean();

        private Lease(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }

        public void release() {
            if (released.compareAndSet(false, true)) {
                holder.compareAndSet(this, null);
            }
        }
    }

    /** Another recording holds the lock: only one engine records at a time. */
    public static final class BusyException extends EngineUnavailableException {

        public BusyException(String requestedEngine, String holder) {
            super(requestedEngine, "another recording is running (" + holder + "); only one engine records at a time");
        }
    }
}
