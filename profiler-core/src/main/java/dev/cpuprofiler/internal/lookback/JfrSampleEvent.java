package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.engine.JfrTimespan;
import java.time.Duration;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * The JFR events a look-back can stream, and all that differs between them: how the stream enables one, which
 * samples carry no stack, what period one sample stands for and which field names the sampled thread. Everything
 * else ({@link JfrSampleStream}) is the same for both.
 */
enum JfrSampleEvent {

    /** Every JDK 17+: at most five threads running Java code per period, by wall clock. */
    EXECUTION("jdk.ExecutionSample") {
        @Override
        void enable(RecordingStream stream, Duration period) {
            stream.enable(name).withPeriod(period).withStackTrace();
        }

        @Override
        boolean hasStack(RecordedEvent event) {
            return true;
        }

        @Override
        Duration periodOf(RecordedEvent event) {
            return null;  // the event does not say: the recording's effective period weighs it (JfrEffectivePeriod)
        }

        @Override
        RecordedThread threadOf(RecordedEvent event) {
            return event.getThread("sampledThread");
        }
    },

    /**
     * JDK 25+ on Linux: every thread, Java or native, sampled per {@code throttle} of its own CPU time. Each event
     * carries the period it was taken at ({@code samplingPeriod}: checked on JDK 25.0.3, it is the throttle in force,
     * the finest of all recordings, so a user's 10 ms recording makes it say 10 ms), and {@code failed} when the
     * stack could not be walked.
     */
    CPU_TIME("jdk.CPUTimeSample") {
        @Override
        void enable(RecordingStream stream, Duration period) {
            stream.enable(name).with("throttle", JfrTimespan.of(period)).withStackTrace();
        }

        @Override
        boolean hasStack(RecordedEvent event) {
            return !event.getBoolean("failed");
        }

        @Override
        Duration periodOf(RecordedEvent event) {
            return event.getDuration("samplingPeriod");
        }

        @Override
        RecordedThread threadOf(RecordedEvent event) {
            return event.getThread();  // eventThread: the sampled thread itself
        }
    };

    final String name;

    JfrSampleEvent(String name) {
        this.name = name;
    }

    /** Enables the event on the stream, sampling every {@code period} and with stacks. */
    abstract void enable(RecordingStream stream, Duration period);

    /** False for a sample JFR could not walk: it has nothing to show. */
    abstract boolean hasStack(RecordedEvent event);

    /** The period this one sample stands for, or null when the event does not say. */
    abstract Duration periodOf(RecordedEvent event);

    abstract RecordedThread threadOf(RecordedEvent event);
}
