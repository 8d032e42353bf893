package dev.cpuprofiler.autoconfigure.endpoint;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * The headers of the status page and its script and style, set by the web layer just before the answer is written:
 * the page's fixed {@code Content-Security-Policy}, and headers that keep a browser from guessing types, caching the
 * page or sending its address elsewhere. The content type's {@link StatusPage#PAGE_PARAMETER} marks these answers
 * and is removed here. Any other answer passes untouched.
 */
final class StatusPageHeaders {

    private StatusPageHeaders() {
    }

    /** @return whether the headers were the page's (and are now complete) */
    static boolean apply(HttpHeaders headers) {
        MediaType type = headers.getContentType();
        if (type == null || type.getParameter(StatusPage.PAGE_PARAMETER) == null) {
            return false;
        }
        Map<String, String> parameters = new LinkedHashMap<>(type.getParameters());
        parameters.remove(StatusPage.PAGE_PARAMETER);
        headers.setContentType(new MediaType(type.getType(), type.getSubtype(), parameters));
        headers.set("Content-Security-Policy", StatusPage.POLICY);
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("Referrer-Policy", "no-referrer");
        headers.setCacheControl("no-store");
        return true;
    }
}
