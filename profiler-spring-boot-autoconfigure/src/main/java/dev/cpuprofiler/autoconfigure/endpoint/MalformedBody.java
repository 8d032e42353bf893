package dev.cpuprofiler.autoconfigure.endpoint;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.json.JsonMapper;

/**
 * The 400 for a {@code POST} body the web framework could not read as the endpoint's JSON object, with Spring MVC
 * and WebFlux alike: the parser's reason, where it stopped, and what to send instead, in the format the client's
 * {@code Accept} header asks for.
 */
final class MalformedBody {

    static final int STATUS = 400;

    /** Where Jackson's location note starts: {@code \n at [Source: ...; line: 1, column: 14]}. */
    private static final Pattern JACKSON_SOURCE = Pattern.compile("\\s+at \\[Source:");
    private static final Pattern LINE_COLUMN = Pattern.compile("line: (\\d+), column: (\\d+)");
    /** Jackson's notes inside a message, e.g. {@code (start marker at [Source: REDACTED ...; byte offset: #1])}. */
    private static final Pattern SOURCE_NOTE = Pattern.compile(
            "\\s*\\(start marker at \\[Source: [^]]*]\\)|\\s*at \\[Source: [^]]*]");

    private final ResponseFormat format;
    private final String message;

    private MalformedBody(ResponseFormat format, String message) {
        this.format = format;
        this.message = message;
    }

    /**
     * @param failure what the framework threw while reading the body
     * @param accept the request's {@code Accept} header values, or null
     */
    static MalformedBody of(Throwable failure, @Nullable List<String> accept) {
        ResponseFormat format = ResponseFormat.fromAccept(accept == null || accept.isEmpty() ? null : accept);
        return new MalformedBody(format == null ? ResponseFormat.JSON : format, "Malformed JSON body: "
                + reason(failure) + ". Send an object such as {\"duration\": \"30s\"}, or no body at all");
    }

    String message() {
        return message;
    }

    String contentType() {
        return format.getProducedMimeType().toString();
    }

    /** The answer's body: an {@code ErrorDescriptor} in JSON, or the text or page of {@link Replies}. */
    byte[] body() {
        Object body = Replies.errorBody(format, STATUS, message, null);
        String text = body instanceof String s ? s : JsonMapper.shared().writeValueAsString(body);
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The parser's own words and where it stopped: Jackson 3's message with {@code (line 1, column 2)} and the
     * property it was reading. Spring MVC hands Jackson the body as bytes, and Jackson then only prints a byte offset
     * in its message, behind {@code [Source: REDACTED ...]}; the line and column are in the exception's location.
     * Other causes (Jackson 2, other converters) give their innermost message, without Jackson's source notation.
     */
    static String reason(Throwable ex) {
        Throwable root = ex;
        for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof JacksonException jackson) {
                return jackson(jackson);
            }
            root = t;
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        Matcher source = JACKSON_SOURCE.matcher(message);
        if (!source.find()) {
            return message.trim();
        }
        Matcher lineColumn = LINE_COLUMN.matcher(message);
        return message.substring(0, source.start()).trim()
                + (lineColumn.find(source.start()) ? " (line " + lineColumn.group(1) + ", column "
                        + lineColumn.group(2) + ")" : "");
    }

    private static String jackson(JacksonException e) {
        StringBuilder reason = new StringBuilder(
                SOURCE_NOTE.matcher(String.valueOf(e.getOriginalMessage())).replaceAll("").trim());
        TokenStreamLocation at = e.getLocation();
        if (at != null && at.getLineNr() > 0) {
            reason.append(" (line ").append(at.getLineNr()).append(", column ").append(at.getColumnNr()).append(')');
        }
        String property = e.getPath().stream().map(r -> r.getPropertyName() != null ? r.getPropertyName()
                : r.getIndex() >= 0 ? "[" + r.getIndex() + "]" : "?").collect(Collectors.joining("."));
        if (!property.isEmpty()) {
            reason.append(" at '").append(property).append('\'');
        }
        return reason.toString();
    }
}
