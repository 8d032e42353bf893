package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.RequestActivity;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationView;
import io.micrometer.observation.transport.RequestReplyReceiverContext;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.ClassUtils;

/**
 * Tells the profiler which thread serves which request while a profile records ({@link RequestActivity}): for every
 * observation scope opened or closed, on whatever thread, the root observation it belongs to; and when a root
 * observation stops, its name. A server request is named as Spring's server observations tag it, the method and the
 * URI template ({@code GET /owners/{id}}, never the raw path); a {@code @Scheduled} run as {@code @Scheduled
 * Class.method}; any other by its contextual name or its name. With Micrometer Tracing, its trace and span ids too.
 * <p>
 * Every root observation's duration is counted by its name for the latency trigger ({@link
 * RequestActivity#completed}): one {@code nanoTime} at its start and one at its stop. Otherwise, when no profile
 * records, each callback reads one volatile field and returns. A failure here never reaches the request: it is logged
 * once and ignored.
 */
public class CpuProfilerObservationHandler implements ObservationHandler<Observation.Context> {

    private static final Logger log = LoggerFactory.getLogger(CpuProfilerObservationHandler.class);
    private static final String REQUEST_ID = CpuProfilerObservationHandler.class.getName() + ".request";
    private static final String STARTED = CpuProfilerObservationHandler.class.getName() + ".started";
    /** Whether Micrometer Tracing is here: then each request's trace is named too. */
    private static final boolean TRACING = ClassUtils.isPresent(
            "io.micrometer.tracing.handler.TracingObservationHandler",
            CpuProfilerObservationHandler.class.getClassLoader());

    /** The most URI templates whose server requests' names are kept. */
    private static final int MAX_NAMED_URIS = 1024;

    private final RequestActivity requests;
    private final AtomicBoolean failed = new AtomicBoolean();
    /** Server requests' names by URI template, then method: each endpoint's name is one string, made once. */
    private final Map<String, Map<String, String>> serverNames = new ConcurrentHashMap<>();

    public CpuProfilerObservationHandler(RequestActivity requests) {
        this.requests = requests;
    }

    /** Whether a profile records now: when not, every callback returns at once. */
    public boolean isRecording() {
        return requests.isRecording();
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return true;
    }

    @Override
    public void onStart(Observation.Context context) {
        if (context.getParentObservation() == null) {
            context.put(STARTED, System.nanoTime());
        }
    }

    @Override
    public void onScopeOpened(Observation.Context context) {
        scope(context, true);
    }

    @Override
    public void onScopeClosed(Observation.Context context) {
        scope(context, false);
    }

    /** The current thread starts or stops serving the request this observation belongs to. */
    private void scope(Observation.Context context, boolean opened) {
        if (requests.isRecording()) {
            try {
                long request = requestId(root(context));
                if (opened) {
                    requests.enter(request);
                } else {
                    requests.exit(request);
                }
            } catch (RuntimeException e) {
                failed(e);
            }
        }
    }

    @Override
    public void onStop(Observation.Context context) {
        if (context.getParentObservation() != null) {
            return;
        }
        Long started = context.get(STARTED);
        try {
            // Named once, for both: the request's duration and, while a profile records, its end.
            String name = name(context);
            if (started != null) {
                requests.completed(name, System.nanoTime() - started);
            }
            if (requests.isRecording()) {
                String[] trace = TRACING ? TraceIds.of(context) : null;
                requests.ended(requestId(context), name, trace == null ? null : trace[0],
                        trace == null ? null : trace[1]);
            }
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    /**
     * The request's name in a profile. A server request's is made once per method and URI template (so counting a
     * request's duration allocates no name), unless more than {@value #MAX_NAMED_URIS} templates came.
     */
    String name(Observation.Context context) {
        KeyValue method = context.getLowCardinalityKeyValue("method");
        KeyValue uri = context.getLowCardinalityKeyValue("uri");
        if (context instanceof RequestReplyReceiverContext<?, ?> && method != null && uri != null) {
            String m = method.getValue();
            String u = uri.getValue();
            Map<String, String> byMethod = serverNames.get(u);
            if (byMethod == null) {
                if (serverNames.size() >= MAX_NAMED_URIS) {
                    return m + " " + u;
                }
                byMethod = serverNames.computeIfAbsent(u, k -> new ConcurrentHashMap<>());
            }
            String name = byMethod.get(m);
            return name != null ? name : byMethod.computeIfAbsent(m, k -> k + " " + u);
        }
        return otherName(context);
    }

    /** A name for an observation that is no server request: a {@code @Scheduled} run's, or its own. */
    static String otherName(Observation.Context context) {
        KeyValue type = context.getLowCardinalityKeyValue("code.namespace");
        KeyValue function = context.getLowCardinalityKeyValue("code.function");
        if (type != null && function != null) {
            String simple = type.getValue().substring(type.getValue().lastIndexOf('.') + 1);
            return ("tasks.scheduled.execution".equals(context.getName()) ? "@Scheduled " : "") + simple + "."
                    + function.getValue();
        }
        String contextual = context.getContextualName();
        return contextual != null && !contextual.isBlank() ? contextual : String.valueOf(context.getName());
    }

    /** The outermost observation this one runs in: the request, for a database call or a security filter. */
    private static Observation.Context root(Observation.Context context) {
        Observation.Context root = context;
        for (int depth = 0; depth < 64; depth++) {
            ObservationView parent = root.getParentObservation();
            if (parent == null || !(parent.getContextView() instanceof Observation.Context next) || next == root) {
                break;
            }
            root = next;
        }
        return root;
    }

    /** The id the profiler knows the request by, made on first sight (the context is a concurrent map). */
    private long requestId(Observation.Context root) {
        Long id = root.get(REQUEST_ID);
        if (id == null) {
            long made = requests.newRequest();
            if (made == 0) {
                return 0;
            }
            id = root.computeIfAbsent(REQUEST_ID, k -> made);
        }
        return id;
    }

    private void failed(RuntimeException e) {
        if (failed.compareAndSet(false, true)) {
            log.warn("Request attribution failed; profiles may show fewer endpoints: {}", e.toString());
        }
    }
}
