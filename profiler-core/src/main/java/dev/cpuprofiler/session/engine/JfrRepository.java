package dev.cpuprofiler.session.engine;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
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
        String options = flightRecorderOptions.get();
        if (options != null) {
            Matcher m = OPTION.matcher(options);
            if (m.find()) {
                return Path.of(m.group(1));
            }
        }
        return Path.of(systemProperty.apply("java.io.tmpdir"));
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
