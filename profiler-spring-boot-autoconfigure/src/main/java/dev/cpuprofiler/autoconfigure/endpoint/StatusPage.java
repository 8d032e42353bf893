package dev.cpuprofiler.autoconfigure.endpoint;

import java.util.Map;
import java.util.Optional;
import org.springframework.util.MimeType;

/**
 * The status page for a browser: three static files next to this class, served as they are. {@code status-page.html}
 * is a skeleton; {@code status-page.js} draws everything in it from the JSON status, at once and every few seconds
 * (the one renderer: no HTML is built in Java); {@code status-page.css} styles it. The page loads its script and style
 * from the endpoint itself ({@code cpuprofiler/status-page.js}, under the same selector as a profile's id), so its
 * {@code Content-Security-Policy} is fixed and allows {@code 'self'} only.
 * <p>
 * Each of the three answers carries a {@code cpuprofiler-page} parameter in its content type, the one header
 * Actuator's {@code WebEndpointResponse} carries; {@link EndpointHeaders} removes it and sets the page's headers.
 */
final class StatusPage {

    /** The {@code Content-Type} parameter that marks the page's answers for the web layer; never sent. */
    static final String PAGE_PARAMETER = "cpuprofiler-page";

    /** The page's {@code Content-Security-Policy}: its own script, style and JSON, nothing else. */
    static final String POLICY = "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; "
            + "img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    /** A file of the page and the type it is served as. */
    record Asset(String body, MimeType contentType) {
    }

    private static final Asset HTML = asset("status-page.html", "html");
    private static final Map<String, Asset> SCRIPT_AND_STYLE = Map.of(
            "status-page.js", asset("status-page.js", "javascript"),
            "status-page.css", asset("status-page.css", "css"));

    private StatusPage() {
    }

    /** The page itself. */
    static Asset html() {
        return HTML;
    }

    /** The page's script or style, by the name the page asks for; empty for any other name (a profile's id). */
    static Optional<Asset> scriptOrStyle(String name) {
        return Optional.ofNullable(SCRIPT_AND_STYLE.get(name));
    }

    private static Asset asset(String name, String subtype) {
        return new Asset(EndpointResources.text(name), new MimeType("text", subtype,
                Map.of("charset", "UTF-8", PAGE_PARAMETER, name)));
    }
}
