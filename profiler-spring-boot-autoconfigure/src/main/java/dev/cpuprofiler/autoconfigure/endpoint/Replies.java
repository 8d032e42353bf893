package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.CpuProfilerStatus.Session;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ErrorDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.SessionDescriptor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.http.HttpStatus;
import org.springframework.util.MimeType;

/**
 * The endpoint's answers that are not profiles, a started session and a refusal, in the {@link ResponseFormat} the
 * client accepts: JSON, a few lines of text, or a small page ({@code reply.html}). The content type is set whenever
 * the format is known: left to content negotiation, a JSON refusal for a client that accepts only HTML became a 500.
 */
final class Replies {

    private static final String REPLY = StatusPage.resource("reply.html");
    private static final Pattern SLOT = Pattern.compile("\\{(title|text)}");

    private Replies() {
    }

    /** 200 with the session just started. */
    static WebEndpointResponse<?> session(@Nullable ResponseFormat format, Session session) {
        Object body = format == ResponseFormat.TEXT ? "Profiling session started\n\n" + fields(session)
                : format == ResponseFormat.HTML ? page("Profiling session started", fields(session))
                : new SessionDescriptor(session);
        return response(body, 200, format);
    }

    /** The {@code Content-Type} parameter that carries a 503's {@code Retry-After} seconds to the web layer. */
    static final String RETRY_AFTER_PARAMETER = "cpuprofiler-retry-after";
    /** A busy 503's {@code Retry-After}: a render takes about a second at most. */
    static final int BUSY_RETRY_SECONDS = 1;

    /**
     * 503 for a moment: {@link EndpointHeaders} turns the type's {@link #RETRY_AFTER_PARAMETER} into
     * {@code Retry-After}; the type is set even for a client whose format is unknown (JSON, then).
     */
    static WebEndpointResponse<?> busy(@Nullable ResponseFormat format, String message) {
        MimeType type = type(format);
        Map<String, String> parameters = new LinkedHashMap<>(type.getParameters());
        parameters.put(RETRY_AFTER_PARAMETER, Integer.toString(BUSY_RETRY_SECONDS));
        return new WebEndpointResponse<>(errorBody(format, 503, message, null), 503,
                new MimeType(type.getType(), type.getSubtype(), parameters));
    }

    /** A refusal: the status, what was wrong in words a person can act on, and the session in the way (429). */
    static WebEndpointResponse<?> error(@Nullable ResponseFormat format, int status, String message,
            @Nullable Session running) {
        return response(errorBody(format, status, message, running), status, format);
    }

    private static WebEndpointResponse<?> response(Object body, int status, @Nullable ResponseFormat format) {
        return format == null ? new WebEndpointResponse<>(body, status) : new WebEndpointResponse<>(body, status,
                type(format));
    }

    /** The answer's type: JSON in {@code application/json} for any client that takes it (or takes nothing else). */
    static MimeType type(@Nullable ResponseFormat format) {
        return (format == null || format == ResponseFormat.ANY ? ResponseFormat.JSON : format).getProducedMimeType();
    }

    /** The body of a refusal: an {@link ErrorDescriptor} for JSON (and an unknown format), text otherwise. */
    static Object errorBody(@Nullable ResponseFormat format, int status, String message, @Nullable Session running) {
        String more = running == null ? "" : "\n\nRunning session:\n" + fields(running);
        if (format == ResponseFormat.TEXT) {
            return status + " " + reason(status) + ": " + message + (running == null ? "\n" : more);
        }
        return format == ResponseFormat.HTML ? page(status + " " + reason(status), message + more)
                : new ErrorDescriptor(status, reason(status), message, running);
    }

    /** The reason phrase of the status: "Too Many Requests". */
    static String reason(int status) {
        HttpStatus known = HttpStatus.resolve(status);
        return known == null ? "Error" : known.getReasonPhrase();
    }

    /** One {@code name: value} line per field of the session, as in its JSON. */
    private static String fields(Session s) {
        return "id: " + s.id() + "\ntrigger: " + s.trigger() + "\nengine: " + s.engine() + "\nstartedAt: "
                + s.startedAt() + "\nduration: " + s.duration() + "\nelapsed: " + s.elapsed() + "\nsamples: "
                + s.samples() + "\n";
    }

    /** {@code reply.html} with the title and the text, escaped, in one pass. */
    private static String page(String title, String text) {
        return SLOT.matcher(REPLY).replaceAll(m -> Matcher.quoteReplacement(escape(
                m.group(1).equals("title") ? title : text)));
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }
}
