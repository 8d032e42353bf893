package dev.cpuprofiler.autoconfigure.page;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.core.io.ClassPathResource;
import org.springframework.util.MimeType;

/**
 * The status page's files, which the endpoint serves as they are from beside this class: {@code status-page.html} is
 * a skeleton, {@code status-page.js} draws everything in it from the JSON status (the one renderer: no HTML is built
 * in Java), {@code status-page.css} styles it. The page loads its script and style from the endpoint itself
 * ({@code cpuprofiler/status-page.js}, where a profile's id goes), so its policy allows {@code 'self'} only
 * ({@link StatusPageHeaders}).
 */
public final class StatusPage {

    /** The page itself. */
    public static final WebEndpointResponse<String> HTML = of("status-page.html", "html");

    /** The page's script and style, by the name the page asks for them, where a profile's id goes. */
    static final Map<String, WebEndpointResponse<String>> SCRIPT_AND_STYLE = Map.of(
            "status-page.js", of("status-page.js", "javascript"), "status-page.css", of("status-page.css", "css"));

    private StatusPage() {
    }

    /** The page's script or style of that name, or null: a profile's id. */
    public static @Nullable WebEndpointResponse<String> scriptOrStyle(String name) {
        return SCRIPT_AND_STYLE.get(name);
    }

    private static WebEndpointResponse<String> of(String name, String subtype) {
        try {
            return new WebEndpointResponse<>(new ClassPathResource(name, StatusPage.class).getContentAsString(
                    StandardCharsets.UTF_8), 200, new MimeType("text", subtype, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("missing resource " + name + " next to " + StatusPage.class, e);
        }
    }
}
