package dev.cpuprofiler.internal.engine;

import java.time.Duration;
import jdk.jfr.Category;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.Recording;
import jdk.jfr.StackTrace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps JFR's "JFR Periodic Tasks" thread asleep between this profiler's recordings on Java 17 to 20.
 *
 * <p>Once JFR is initialised in a JVM, that thread runs for the rest of its life, and before Java 21 (JDK-8302821,
 * "JFR: Periodic task thread spins after recording has stopped") it naps its 10-ms minimum whenever no recording
 * enables a periodic event, from JFR's initialisation on: it wakes about 100 times a second, which costs an idle
 * application more than a continuous profiler does (BENCHMARKS.md). With one periodic event enabled, its nap is its
 * one-second wait interval instead.
 *
 * <p>So before this profiler's first JFR recording on such a JVM, or once it initialised JFR,
 * {@link #beforeRecording()} opens one in-memory recording that enables nothing but {@link Tick}, a periodic event of this profiler's with a one-hour period whose
 * hook writes nothing: JFR then waits a second between its periodic passes. It stays open until {@link #close()}
 * (the profiler's end), is listed by {@code jcmd JFR.check} under {@link #RECORDING_NAME}, and holds no data. On Java
 * 21 and later it does nothing.
 */
public final class JfrPeriodicTaskKeeper implements AutoCloseable {

    /** The name of the recording it keeps open. */
    public static final String RECORDING_NAME = "cpuprofiler: keeps JFR's periodic thread asleep (JDK-8302821)";
    /** The first Java release whose periodic thread sleeps by itself once no recording is running. */
    static final int FIXED_IN = 21;

    private static final Logger log = LoggerFactory.getLogger(JfrPeriodicTaskKeeper.class);

    private final boolean needed;
    // Guarded by this. A jdk.jfr.Recording, typed AutoCloseable so that a runtime without the jdk.jfr module never
    // loads JFR's classes through this one.
    private AutoCloseable kept;
    private boolean failed;
    private boolean closed;

    private JfrPeriodicTaskKeeper(boolean needed) {
        this.needed = needed;
    }

    /** For this JVM: keeps the thread asleep before Java 21, does nothing on later ones. */
    public static JfrPeriodicTaskKeeper forThisJvm() {
        return forRelease(Runtime.version().feature());
    }

    /** For a JVM of this feature release (17, 21, 25...). */
    static JfrPeriodicTaskKeeper forRelease(int feature) {
        return new JfrPeriodicTaskKeeper(feature < FIXED_IN);
    }

    /** One that never opens anything: for parts used on their own (tests, benchmarks). */
    public static JfrPeriodicTaskKeeper none() {
        return new JfrPeriodicTaskKeeper(false);
    }

    /**
     * Called before each JFR recording of this profiler starts, when JFR is known to be usable. Opens the keeping
     * recording the first time on a JVM that needs it; a failure is logged once and only costs the CPU it would have
     * saved.
     */
    public synchronized void beforeRecording() {
        if (!needed || closed || failed || kept != null) {
            return;
        }
        try {
            kept = Keeping.open();
            log.debug("Opened the recording '{}': on Java {} JFR's periodic thread would otherwise wake 100 times a "
                    + "second once a recording of ours ends", RECORDING_NAME, Runtime.version().feature());
        } catch (RuntimeException | LinkageError e) {
            failed = true;
            log.info("JFR's periodic thread may wake 100 times a second after a look-back or jfr-execution recording "
                    + "ends on this Java {} (JDK-8302821): the recording that keeps it asleep could not start ({})",
                    Runtime.version().feature(), e.toString());
        }
    }

    /** Whether the keeping recording is open. */
    public synchronized boolean keeping() {
        return kept != null;
    }

    /** Closes the keeping recording, if open; later calls to {@link #beforeRecording()} open nothing. */
    @Override
    public synchronized void close() {
        closed = true;
        if (kept == null) {
            return;
        }
        try {
            kept.close();
        } catch (Exception e) {
            log.debug("Could not close the recording '{}': {}", RECORDING_NAME, e.toString());
        }
        kept = null;
    }

    /** Everything that touches JFR, loaded only when the keeping recording opens. */
    private static final class Keeping {

        static AutoCloseable open() {
            // A new object each time: JFR refuses a hook added twice, and a non-capturing lambda is one shared
            // instance, so a second profiler in the JVM (two application contexts) could not open its own.
            Runnable hook = new NothingToWrite();
            FlightRecorder.addPeriodicEvent(Tick.class, hook);
            Recording recording = new Recording();
            try {
                recording.setName(RECORDING_NAME);
                recording.setToDisk(false);
                recording.setMaxSize(0);
                recording.enable(Tick.class).withPeriod(Duration.ofHours(1));
                recording.start();
            } catch (RuntimeException e) {
                recording.close();
                FlightRecorder.removePeriodicEvent(hook);
                throw e;
            }
            return () -> {
                recording.close();
                FlightRecorder.removePeriodicEvent(hook);
            };
        }
    }

    /** The periodic hook: the event only has to be enabled with a period, it is never written. */
    private static final class NothingToWrite implements Runnable {
        @Override
        public void run() {
        }
    }

    /** Enabled with a period so that JFR's periodic thread has a next deadline; never written. */
    @Name("dev.cpuprofiler.PeriodicTaskKeeper")
    @Label("Periodic task keeper")
    @Category("CPU Profiler")
    @Enabled(false)
    @StackTrace(false)
    @Period("1 h")
    static final class Tick extends Event {
    }
}
