package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ErrorDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.SessionDescriptor;
import dev.cpuprofiler.CpuProfilerStatus.Session;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The endpoint's answers that are not profiles: a started session and a refusal, in the {@link ResponseFormat} the
 * client accepts. The content type is always set when the format is known: with an answer that Spring may not render
 * in every type the operation produces (a JSON document for a client that asked for {@code text/html}), leaving it
 * to content negotiation is what turned a 404 into a 500.
 */
final class Replies {

    private static final String REPLY = EndpointResources.text("reply.html");

    private Replies() {
    }

    /** 200 with the session just started. */
    static WebEndpointResponse<?> session(@Nullable ResponseFormat format, Session session) {
        int ok = WebEndpointResponse.STATUS_OK;
        if (format == null) {
            return new WebEndpointResponse<>(new SessionDescriptor(session), ok);
        }
        return switch (format) {
            case JSON -> new WebEndpointResponse<>(new SessionDescriptor(session), ok, format.getProducedMimeType());
            case TEXT -> new WebEndpointResponse<>("Profiling session started\n\n" + fields(session), ok,
                    format.getProducedMimeType());
            case HTML -> new WebEndpointResponse<>(page("Profiling session started", fields(session)), ok,
                    format.getProducedMimeType());
        };
    }

    /**
     * A refusal: status, reason and, for 429, the running session.
     *
     * @param message what was wrong, in words a person can act on
     * @param running the session in the way, or null
     */
    static WebEndpointResponse<?> error(@Nullable ResponseFormat format, int status, String message,
            @Nullable Session running) {
        if (format == null) {
            return new WebEndpointResponse<>(errorDescriptor(status, message, running), status);
        }
        return new WebEndpointResponse<>(errorBody(format, status, message, running), status,
                format.getProducedMimeType());
    }

    /** The body of a refusal in a known format: an {@link ErrorDescriptor} for JSON, text otherwise. */
    static Object errorBody(ResponseFormat format, int status, String message, @Nullable Session running) {
        return switch (format) {
            case JSON -> errorDescriptor(status, message, running);
            case TEXT -> text(status, message, running);
            case HTML -> page(status + " " + reason(status), message
                    + (running == null ? "" : "\n\nRunning session:\n" + fields(running)));
        };
    }

    static ErrorDescriptor errorDescriptor(int status, String message, @Nullable Session running) {
        return new ErrorDescriptor(status, reason(status), message, running);
    }

    /** {@code 404 Not Found: No profile 'x'}, and the running session's fields below, if any. */
    static String text(int status, String message, @Nullable Session running) {
        String head = status + " " + reason(status) + ": " + message + "\n";
        return running == null ? head : head + "\nRunning session:\n" + fields(running);
    }

    /** The reason phrase of the statuses the endpoint answers with. */
    static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 429 -> "Too Many Requests";
            case 503 -> "Service Unavailable";
            default -> "Error";
        };
    }

    /** One {@code name: value} line per field of the session, as in its JSON. */
    private static String fields(Session s) {
        return "id: " + s.id() + "\ntrigger: " + s.trigger() + "\nengine: " + s.engine() + "\nstartedAt: "
                + s.startedAt() + "\nduration: " + s.duration() + "\nelapsed: " + s.elapsed() + "\nsamples: "
                + s.samples() + "\n";
    }

    /** The small page a client that accepts only HTML gets: {@code reply.html} with the title and the text. */
    private static String page(String title, String text) {
        StringBuilder html = new StringBuilder(REPLY.length() + title.length() * 2 + text.length() + 64);
        int from = 0;
        for (int at = REPLY.indexOf('{'); at >= 0; at = REPLY.indexOf('{', from)) {
            int end = REPLY.indexOf('}', at);
            String name = REPLY.substring(at + 1, end);
            html.append(REPLY, from, at).append(escape(name.equals("title") ? title : text));
            from = end + 1;
        }
        return html.append(REPLY, from, REPLY.length()).toString();
    }

    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
