package dev.cpuprofiler.autoconfigure.endpoint;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.core.Ordered;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers a {@code POST /actuator/cpuprofiler} whose JSON body cannot be read with 400 and the parser's reason (what
 * was wrong, at which line and column), in the format the {@code Accept} header asks for. Spring MVC reads the body
 * before Actuator calls the endpoint, and on its own answers a bare 400 without the reason (Spring Boot's error page
 * leaves messages out by default). Runs before Spring MVC's own resolvers (order 0) and handles nothing else.
 */
public class CpuProfilerRequestBodyErrors implements HandlerExceptionResolver, Ordered {

    /** Where Jackson's location note starts: {@code \n at [Source: ...; line: 1, column: 14]}. */
    private static final Pattern JACKSON_SOURCE = Pattern.compile("\\s+at \\[Source:");
    private static final Pattern LINE_COLUMN = Pattern.compile("line: (\\d+), column: (\\d+)");
    /** Jackson's notes inside a message, e.g. {@code (start marker at [Source: REDACTED ...; byte offset: #1])}. */
    private static final Pattern SOURCE_NOTE = Pattern.compile(
            "\\s*\\(start marker at \\[Source: [^]]*]\\)|\\s*at \\[Source: [^]]*]");

    private final StartRequestMatcher startRequests;

    public CpuProfilerRequestBodyErrors(ObjectProvider<PathMappedEndpoints> endpoints) {
        this.startRequests = new StartRequestMatcher(endpoints);
    }

    @Override
    public int getOrder() {
        return -1;
    }

    @Override
    public @Nullable ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response,
            @Nullable Object handler, Exception ex) {
        if (!(ex instanceof HttpMessageNotReadableException) || response.isCommitted()
                || !startRequests.matches(request)) {
            return null;
        }
        String message = "Malformed JSON body: " + reason(ex) + ". Send an object such as {\"duration\": \"30s\"}, "
                + "or no body at all";
        List<String> accept = Collections.list(request.getHeaders("Accept"));
        ResponseFormat format = ResponseFormat.fromAccept(accept.isEmpty() ? null : accept);
        if (format == null) {
            format = ResponseFormat.JSON;
        }
        Object body = Replies.errorBody(format, HttpServletResponse.SC_BAD_REQUEST, message, null);
        try {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            response.setContentType(format.getProducedMimeType().toString());
            byte[] bytes = (body instanceof String text ? text : JsonMapper.shared().writeValueAsString(body))
                    .getBytes(StandardCharsets.UTF_8);
            response.setContentLength(bytes.length);
            response.getOutputStream().write(bytes);
        } catch (IOException e) {
            return null;
        }
        return new ModelAndView();
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
