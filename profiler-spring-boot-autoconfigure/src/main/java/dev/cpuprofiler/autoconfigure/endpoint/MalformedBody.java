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
record MalformedBody(@Nullable ResponseFormat format, String message) {

    static final int STATUS = 400;

    /** Where Jackson's location note starts: {@code \n at [Source: ...; line: 1, column: 14]}. */
    private static final Pattern JACKSON_SOURCE = Pattern.compile("\\s+at \\[Source:");
    private static final Pattern LINE_COLUMN = Pattern.compile("line: (\\d+), column: (\\d+)");
    /** Jackson's notes inside a message, e.g. {@code (start marker at [Source: REDACTED ...; byte offset: #1])}. */
    private static final Pattern SOURCE_NOTE = Pattern.compile(
            "\\s*\\(start marker at \\[Source: [^]]*]\\)|\\s*at \\[Source: [^]]*]");

    /** @param failure what the framework threw while reading the body */
    static MalformedBody of(Throwable failure, @Nullable List<String> accept) {
        return new MalformedBody(ResponseFormat.fromAccept(accept), "Malformed JSON body: " + reason(failure)
                + ". Send an object such as {\"duration\": \"30s\"}, or no body at all");
    }

    String contentType() {
        return Replies.type(format).toString();
    }

    /** The answer's body: an {@code ErrorDescriptor} in JSON, or the text or page of {@link Replies}. */
    byte[] body() {
        Object body = Replies.errorBody(format, STATUS, message, null);
        String text = body instanceof String s ? s : JsonMapper.shared().writeValueAsString(body);
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The parser's own words and where it stopped. Spring MVC hands Jackson 3 the body as bytes, so its message
     * gives only a byte offset behind {@code [Source: REDACTED ...]}: line, column and property come from the
     * exception. Other causes (Jackson 2, other converters) give their innermost message, the line and column taken
     * out of Jackson's source notation.
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
        Matcher at = LINE_COLUMN.matcher(message);
        return message.substring(0, source.start()).trim()
                + (at.find(source.start()) ? " (line " + at.group(1) + ", column " + at.group(2) + ")" : "");
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
        return property.isEmpty() ? reason.toString() : reason.append(" at '").append(property).append('\'').toString();
    }
}
