package dev.cpuprofiler.autoconfigure.endpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.core.io.ClassPathResource;
import org.springframework.util.MimeType;

/**
 * A file of the status page, served as it is from beside this class: {@code status-page.html} is a skeleton,
 * {@code status-page.js} draws everything in it from the JSON status (the one renderer: no HTML is built in Java),
 * {@code status-page.css} styles it. The page loads its script and style from the endpoint itself
 * ({@code cpuprofiler/status-page.js}, where a profile's id goes), so its {@link #POLICY} allows {@code 'self'} only.
 * Each file's content type carries {@link #PAGE_PARAMETER}, since a content type is the one header Actuator's
 * {@code WebEndpointResponse} carries; {@link EndpointHeaders} removes it and sets the page's headers.
 */
record StatusPage(String body, MimeType contentType) {

    /** The {@code Content-Type} parameter that marks the page's answers for the web layer; never sent. */
    static final String PAGE_PARAMETER = "cpuprofiler-page";

    /** The page's {@code Content-Security-Policy}: its own script, style and JSON, nothing else. */
    static final String POLICY = "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; "
            + "img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    /** The page itself. */
    static final StatusPage HTML = of("status-page.html", "html");
    /** The page's script and style, by the name the page asks for them, where a profile's id goes. */
    static final Map<String, StatusPage> SCRIPT_AND_STYLE = Map.of(
            "status-page.js", of("status-page.js", "javascript"), "status-page.css", of("status-page.css", "css"));

    WebEndpointResponse<String> response() {
        return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_OK, contentType);
    }

    /** A text file next to this class, read once. */
    static String resource(String name) {
        try {
            return new ClassPathResource(name, StatusPage.class).getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("missing resource " + name + " next to " + StatusPage.class, e);
        }
    }

    private static StatusPage of(String name, String subtype) {
        return new StatusPage(resource(name), new MimeType("text", subtype,
                Map.of("charset", "UTF-8", PAGE_PARAMETER, name)));
    }
}
