package dev.cpuprofiler.autoconfigure.page;

import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.util.ClassUtils;

/**
 * Spring Security's CSRF token for the status page's script, which asks for it on its status requests ({@link #ASK})
 * and sends it back with its {@code POST}: the header the token repository reads ({@link #HEADER}) and the token as
 * the request's handler rendered it ({@link #TOKEN}; the default XOR handler unmasks it on the way back). Read from the
 * attribute Spring Security's CSRF filter sets, so the session and the cookie repositories work alike; only when
 * asked, and only on the page's paths (the endpoint's page filters), so a client polling the status never makes the
 * repository create a session, and no other request of the application gets a session or cookie from the starter.
 */
public final class PageCsrfToken {

    public static final String ASK = "CpuProfiler-Csrf";
    public static final String HEADER = "CpuProfiler-Csrf-Header";
    public static final String TOKEN = "CpuProfiler-Csrf-Token";
    /** Where Spring MVC's and WebFlux's CSRF filters keep the token: the name of their token type. */
    public static final String SERVLET_ATTRIBUTE = "org.springframework.security.web.csrf.CsrfToken";
    public static final String REACTIVE_ATTRIBUTE = "org.springframework.security.web.server.csrf.CsrfToken";
    private static final Logger log = LoggerFactory.getLogger(PageCsrfToken.class);
    private static final boolean SECURITY = ClassUtils.isPresent(SERVLET_ATTRIBUTE,
            PageCsrfToken.class.getClassLoader());

    private PageCsrfToken() {
    }

    /**
     * Copies a servlet or a reactive {@code CsrfToken} into the answer's headers ({@code header} sets one); anything
     * else is left out, and so is a token the repository fails to load: the status is answered all the same, and the
     * page's {@code POST} without a token gets Spring Security's refusal, which the page shows.
     */
    public static void copy(@Nullable Object token, BiConsumer<String, String> header) {
        try {
            if (SECURITY && token instanceof CsrfToken servlet) {
                set(servlet.getHeaderName(), servlet.getToken(), header);
            } else if (SECURITY && token instanceof org.springframework.security.web.server.csrf.CsrfToken reactive) {
                set(reactive.getHeaderName(), reactive.getToken(), header);
            }
        } catch (RuntimeException e) {
            log.debug("No CSRF token for the status page's answer: {}", e.toString());
        }
    }

    private static void set(String name, String token, BiConsumer<String, String> header) {
        header.accept(HEADER, name);
        header.accept(TOKEN, token);
    }
}
