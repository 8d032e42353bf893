package dev.cpuprofiler.autoconfigure.export;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * {@code profiler.cpu.export} (counter), tagged {@code target} ({@code pyroscope}, {@code otlp}) and {@code result}:
 * {@code success} (delivered), {@code retry} (an attempt failed and another follows), {@code failure} (not
 * delivered: refused, retries used up, or nothing to send) and {@code dropped} (never tried: the queue was full or
 * the application stopping). Every profile ends as exactly one of success, failure or dropped per target; every
 * combination is registered up front so that dashboards see zeros, not gaps.
 */
public class ExportMeterBinder implements MeterBinder {

    static final String METER = "profiler.cpu.export";

    private final ProfileExporter exporter;

    public ExportMeterBinder(ProfileExporter exporter) {
        this.exporter = Objects.requireNonNull(exporter, "exporter");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (String target : exporter.targets()) {
            for (ExportResult result : ExportResult.values()) {
                counter(registry, target, result);
            }
        }
        exporter.addListener(status -> counter(registry, status.target(), status.result()).increment());
    }

    private static Counter counter(MeterRegistry registry, String target, ExportResult result) {
        return Counter.builder(METER)
                .description("Profile pushes to an export target, by outcome")
                .tag("target", target)
                .tag("result", result.id())
                .register(registry);
    }
}
