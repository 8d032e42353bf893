package dev.cpuprofiler.autoconfigure.endpoint;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * The headers of the status page, set by the web layer just before the answer is written: its
 * {@code Content-Security-Policy} with the nonce {@link StatusPage} chose (passed on as a parameter of the content type,
 * which is removed here), and headers that keep a browser from guessing types, caching the page or sending its address
 * elsewhere. Any other answer passes untouched.
 */
final class StatusPageHeaders {

    private StatusPageHeaders() {
    }

    /** @return whether the headers were a status page's (and are now complete) */
    static boolean apply(HttpHeaders headers) {
        MediaType type = headers.getContentType();
        String nonce = type == null ? null : type.getParameter(StatusPage.NONCE_PARAMETER);
        if (nonce == null) {
            return false;
        }
        Map<String, String> parameters = new LinkedHashMap<>(type.getParameters());
        parameters.remove(StatusPage.NONCE_PARAMETER);
        headers.setContentType(new MediaType(type.getType(), type.getSubtype(), parameters));
        headers.set("Content-Security-Policy", StatusPage.policy(nonce));
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("Referrer-Policy", "no-referrer");
        headers.setCacheControl("no-store");
        return true;
    }
}
