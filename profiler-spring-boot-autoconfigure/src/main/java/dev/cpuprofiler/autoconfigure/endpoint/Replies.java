package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ErrorDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.SessionDescriptor;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The endpoint's answers that are not profiles: a started session and a refusal, in the {@link ResponseFormat} the
 * client accepts. The content type is always set when the format is known: with an answer that Spring may not render
 * in every type the operation produces (a JSON document for a client that asked for {@code text/html}), leaving it
 * to content negotiation is what turned a 404 into a 500.
 */
final class Replies {

    private Replies() {
    }

    /** 200 with the session just started. */
    static WebEndpointResponse<?> session(@Nullable ResponseFormat format, SessionDescriptor session) {
        int ok = WebEndpointResponse.STATUS_OK;
        if (format == null) {
            return new WebEndpointResponse<>(session, ok);
        }
        return switch (format) {
            case JSON -> new WebEndpointResponse<>(session, ok, format.getProducedMimeType());
            case TEXT -> new WebEndpointResponse<>("Profiling session started\n\n" + fields(session), ok,
                    format.getProducedMimeType());
            case HTML -> new WebEndpointResponse<>(page("Profiling session started", null, session, null), ok,
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
            @Nullable SessionDescriptor running) {
        if (format == null) {
            return new WebEndpointResponse<>(errorDescriptor(status, message, running), status);
        }
        return new WebEndpointResponse<>(errorBody(format, status, message, running), status,
                format.getProducedMimeType());
    }

    /** The body of a refusal in a known format: an {@link ErrorDescriptor} for JSON, text otherwise. */
    static Object errorBody(ResponseFormat format, int status, String message, @Nullable SessionDescriptor running) {
        return switch (format) {
            case JSON -> errorDescriptor(status, message, running);
            case TEXT -> text(status, message, running);
            case HTML -> page(status + " " + reason(status), message, running, "Running session");
        };
    }

    static ErrorDescriptor errorDescriptor(int status, String message, @Nullable SessionDescriptor running) {
        return new ErrorDescriptor(status, reason(status), message, running);
    }

    /** {@code 404 Not Found: No profile 'x'}, and the running session's fields below, if any. */
    static String text(int status, String message, @Nullable SessionDescriptor running) {
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
    private static String fields(SessionDescriptor s) {
        return "id: " + s.id() + "\ntrigger: " + s.trigger() + "\nengine: " + s.engine() + "\nstartedAt: "
                + s.startedAt() + "\nduration: " + s.duration() + "\nelapsed: " + s.elapsed() + "\nsamples: "
                + s.samples() + "\n";
    }

    private static String page(String title, @Nullable String message, @Nullable SessionDescriptor session,
            @Nullable String sessionHeading) {
        StringBuilder html = new StringBuilder(512).append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">")
                .append("<title>").append(escape(title)).append("</title></head>\n<body><h1>").append(escape(title))
                .append("</h1>\n");
        if (message != null) {
            html.append("<p>").append(escape(message)).append("</p>\n");
        }
        if (session != null) {
            if (sessionHeading != null) {
                html.append("<h2>").append(escape(sessionHeading)).append("</h2>\n");
            }
            html.append("<pre>").append(escape(fields(session))).append("</pre>\n");
        }
        return html.append("</body></html>\n").toString();
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
