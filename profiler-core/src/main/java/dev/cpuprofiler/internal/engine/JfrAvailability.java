package dev.cpuprofiler.internal.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.text.ParseException;
import jdk.jfr.Configuration;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;

/** Whether JFR can record here, and which events this JVM knows. */
public final class JfrAvailability {

    private JfrAvailability() {
    }

    /** Why JFR cannot record now, or {@code null} if it can: the engines and the look-back ask before they start it. */
    public static String whyUnavailable() {
        try {
            if (!FlightRecorder.isAvailable()) {
                return "JFR is not available in this JVM (disabled with -XX:-FlightRecorder or not built in)";
            }
            return shuttingDown() ? "the JVM is shutting down (a JFR recording started now would never "
                    + "return)" : null;
        } catch (LinkageError e) {
            return "the jdk.jfr module is missing from this runtime: " + e;
        }
    }

    /**
     * Whether the JDK's bundled {@code default.jfc} lists this event. Reading it does not initialise JFR, unlike
     * {@link #hasEventType}: initialising JFR makes it instrument the JDK's file and socket classes, which throws away
     * the JIT's code that inlined them (on JDK 17 a warming application lost a third of its throughput for half a
     * minute). So an engine asks this first and initialises JFR only when it will record with it.
     *
     * <p>The file is read by its path: on JDK 17 {@code Configuration.getConfiguration("default")} leaves two
     * descriptors open on the directory {@code $JAVA_HOME/lib/jfr} for the JVM's life (JDK 25 closes them).
     */
    static boolean listedInDefaultSettings(String eventName) {
        try {
            String prefix = eventName + "#";
            Path defaults = Path.of(System.getProperty("java.home"), "lib", "jfr", "default.jfc");
            return Configuration.create(defaults).getSettings().keySet().stream().anyMatch(k -> k.startsWith(prefix));
        } catch (IOException | ParseException | RuntimeException | LinkageError e) {
            return true; // unknown: let the event-type lookup decide
        }
    }

    /** Whether this JVM has an event type of this name (built-in events included). Initialises JFR. */
    static boolean hasEventType(String name) {
        for (EventType type : FlightRecorder.getFlightRecorder().getEventTypes()) {
            if (type.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    static String javaVersion() {
        return Runtime.version().toString();
    }

    /**
     * Whether the JVM has begun to shut down (the JVM refuses a new shutdown hook from then on, the only sign). A JFR
     * recording started then never returns: JFR's own hook has stopped its recorder, {@code JVM.beginRecording} waits
     * for it holding JFR's lock, and the hook closing the profiler waits on that lock, so the JVM never exits (seen with
     * the look-back arming on a tick during a SIGTERM).
     */
    public static boolean shuttingDown() {
        Thread probe = new Thread(() -> { }, "cpuprofiler-shutdown-probe");
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        } catch (SecurityException e) {
            return false;
        }
    }
}
