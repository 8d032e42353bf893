package dev.cpuprofiler.session.engine;

import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;

/** Whether JFR can record here, and which events this JVM knows. */
final class JfrAvailability {

    private JfrAvailability() {
    }

    /** Why JFR cannot record, or {@code null} if it can. */
    static String whyUnavailable() {
        try {
            if (!FlightRecorder.isAvailable()) {
                return "JFR is not available in this JVM (disabled with -XX:-FlightRecorder or not built in)";
            }
            return null;
        } catch (LinkageError e) {
            return "the jdk.jfr module is missing from this runtime: " + e;
        }
    }

    /** Whether this JVM has an event type of this name (built-in events included). */
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
}
