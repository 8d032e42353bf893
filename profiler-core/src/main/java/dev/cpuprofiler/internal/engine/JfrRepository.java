package dev.cpuprofiler.internal.engine;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where JFR writes its chunks: the directory JFR says it uses ({@code jdk.jfr.repository}, set once it has written),
 * else the one {@code -XX:FlightRecorderOptions:repository=} names, else {@code java.io.tmpdir}, JFR's default. The
 * profiler does not move the repository: the application or an operator may use JFR too, and expect it where they put
 * it.
 */
public final class JfrRepository {

    private static final Pattern OPTION = Pattern.compile("(?:^|,)repository=([^,]+)");

    private final UnaryOperator<String> systemProperty;
    private final Supplier<String> flightRecorderOptions;
    // A command-line flag: read once, not through the MXBean on every status request and look-back tick.
    private volatile Optional<String> configured;

    /** The running JVM's. */
    public JfrRepository() {
        this(System::getProperty, JfrRepository::vmFlightRecorderOptions);
    }

    public JfrRepository(UnaryOperator<String> systemProperty, Supplier<String> flightRecorderOptions) {
        this.systemProperty = systemProperty;
        this.flightRecorderOptions = flightRecorderOptions;
    }

    /** The directory JFR writes to, or will when it first records. */
    public Path location() {
        String current = systemProperty.apply("jdk.jfr.repository");
        if (current != null && !current.isBlank()) {
            return Path.of(current);
        }
        return configured().map(Path::of).orElseGet(() -> Path.of(systemProperty.apply("java.io.tmpdir")));
    }

    private Optional<String> configured() {
        Optional<String> c = configured;
        if (c == null) {
            String options = flightRecorderOptions.get();
            Matcher m = OPTION.matcher(options == null ? "" : options);
            c = m.find() ? Optional.of(m.group(1)) : Optional.empty();
            configured = c;
        }
        return c;
    }

    private static String vmFlightRecorderOptions() {
        try {
            return ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                    .getVMOption("FlightRecorderOptions").getValue();
        } catch (RuntimeException | LinkageError e) {
            return null;  // not HotSpot, or no such flag: JFR's default then
        }
    }
}
