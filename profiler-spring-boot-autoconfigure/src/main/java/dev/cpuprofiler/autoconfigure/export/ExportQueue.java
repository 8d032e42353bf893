package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.Profile;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The profiles waiting to be pushed, bounded: a session's thread hands its profile over without ever waiting, and a
 * slow or unreachable target costs at most {@code capacity} profiles of heap. When full, the new profile is dropped:
 * logged at WARN once per streak of drops (a target down for hours must not flood the log), then at DEBUG.
 */
final class ExportQueue {

    private static final Logger log = LoggerFactory.getLogger(ExportQueue.class);

    private final BlockingQueue<Profile> profiles;
    private final int capacity;
    private boolean dropping;

    ExportQueue(int capacity) {
        this.capacity = capacity;
        this.profiles = new ArrayBlockingQueue<>(capacity);
    }

    /** Queues the profile, or returns false (and logs why) when the queue is full. Never blocks. */
    boolean offer(Profile profile) {
        boolean queued = profiles.offer(profile);
        synchronized (this) {
            if (queued) {
                dropping = false;
            } else if (!dropping) {
                dropping = true;
                log.warn("Profile {} not exported: {} profiles already wait for a slow or unreachable export target; "
                        + "further drops are logged at DEBUG until one is queued again", profile.id(), capacity);
            } else {
                log.debug("Profile {} not exported: the export queue is still full", profile.id());
            }
        }
        return queued;
    }

    /** The next profile, or null after {@code wait}. */
    Profile poll(Duration wait) throws InterruptedException {
        return profiles.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The next profile, or null when none waits. */
    Profile pollNow() {
        return profiles.poll();
    }

    boolean isEmpty() {
        return profiles.isEmpty();
    }

    int size() {
        return profiles.size();
    }
}
