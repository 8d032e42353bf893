package dev.cpuprofiler.session.engine;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Optional;

/**
 * Without {@code -XX:+DebugNonSafepoints} JFR attributes samples in inlined methods to their callers: a hot inlined
 * method disappears from the profile. async-profiler turns the flag on by itself; the JFR engines say so in a note.
 */
final class DebugNonSafepointsCheck {

    static final String ADVICE = "inlined methods are attributed to their callers: start the JVM with "
            + "-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints for exact attribution";

    private DebugNonSafepointsCheck() {
    }

    /** The advice when the flag is off, empty when on or when this JVM cannot tell. */
    static Optional<String> adviceIfOff() {
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (hotspot != null && "false".equals(hotspot.getVMOption("DebugNonSafepoints").getValue())) {
                return Optional.of(ADVICE);
            }
        } catch (RuntimeException | LinkageError e) {
            // Not HotSpot, or jdk.management missing: nothing to advise.
        }
        return Optional.empty();
    }
}
