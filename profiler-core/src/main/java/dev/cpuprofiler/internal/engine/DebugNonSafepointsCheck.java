package dev.cpuprofiler.internal.engine;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Without {@code -XX:+DebugNonSafepoints} the JVM only records debug information at safepoints, so a
 * sample that lands in a method the JIT inlined is blamed on its caller: the hot method may not show up
 * at all. The check runs once at start-up and says what that costs and how to fix it.
 */
public final class DebugNonSafepointsCheck {

    static final String FLAGS = "-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints";

    private final Function<String, Optional<String>> vmOption;
    // Set when something this profiler did turned the flag on (loading async-profiler does): without
    // -XX:+UnlockDiagnosticVMOptions the flag itself cannot be read back.
    private volatile String turnedOnBy;

    /** Reads the flag from the running JVM. */
    public DebugNonSafepointsCheck() {
        this(DebugNonSafepointsCheck::readVmOption);
    }

    /** @param vmOption the value of a VM option by name, empty when the JVM does not expose it */
    public DebugNonSafepointsCheck(Function<String, Optional<String>> vmOption) {
        this.vmOption = Objects.requireNonNull(vmOption, "vmOption");
    }

    /** Records that the flag is on now, and by what (e.g. loading async-profiler's library). */
    public void turnedOnBy(String cause) {
        this.turnedOnBy = Objects.requireNonNull(cause, "cause");
    }

    /** The warning to log once, or empty when the flag is on. */
    public Optional<String> warning() {
        if (turnedOnBy != null) {
            return Optional.empty();
        }
        Optional<String> value = vmOption.apply("DebugNonSafepoints");
        if (value.isPresent() && Boolean.parseBoolean(value.get())) {
            return Optional.empty();
        }
        return Optional.of("-XX:+DebugNonSafepoints is off: CPU profiles will blame methods the JIT inlined on "
                + "their callers, so a hot small method may not appear at all. Start the JVM with " + FLAGS
                + " for exact attribution.");
    }

    /** A short remark for a profile recorded by a JFR engine while the flag is off, else empty. */
    public Optional<String> note() {
        return warning().map(w -> "inlined methods are attributed to their callers: start the JVM with " + FLAGS
                + " for exact attribution");
    }

    private static Optional<String> readVmOption(String name) {
        try {
            HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return bean == null ? Optional.empty() : Optional.of(bean.getVMOption(name).getValue());
        } catch (IllegalArgumentException | LinkageError | SecurityException e) {
            // Diagnostic flags are invisible unless unlocked: that means it is off.
            return Optional.empty();
        }
    }
}
