package dev.cpuprofiler.autoconfigure;

import io.micrometer.observation.Observation;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.handler.TracingObservationHandler;

/**
 * A request's trace and span ids, where Micrometer Tracing's handler keeps them in its observation (an application
 * with a tracer: Brave or OpenTelemetry). Loaded only when Micrometer Tracing is on the class path.
 */
final class TraceIds {

    private TraceIds() {
    }

    /** {trace id, span id}, or null when the request is not traced. */
    static String[] of(Observation.Context context) {
        TracingObservationHandler.TracingContext tracing = context.get(TracingObservationHandler.TracingContext.class);
        Span span = tracing == null ? null : tracing.getSpan();
        TraceContext ids = span == null ? null : span.context();
        return ids == null || ids.traceId() == null ? null : new String[] {ids.traceId(), ids.spanId()};
    }
}
