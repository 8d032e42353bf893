package dev.cpuprofiler.autoconfigure.page;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UrlPathHelper;

/**
 * The status page's headers on the page's paths ({@link StatusPageHeaders}), set before the endpoint answers, and
 * Spring Security's CSRF token when the page's script asks ({@link PageCsrfToken}); every other request passes as it
 * came. After Spring Security's filters (order -100), which put the token in the request and may refuse it first.
 * {@link StatusPageWebFilter} is WebFlux's.
 */
public class StatusPageFilter extends OncePerRequestFilter implements Ordered {

    private final StatusPageHeaders page;

    public StatusPageFilter(StatusPageHeaders page) {
        this.page = page;
    }

    @Override
    public int getOrder() {
        return 0;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !page.isPage(UrlPathHelper.defaultInstance.getPathWithinApplication(request));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        StatusPageHeaders.HEADERS.forEach(response::setHeader);
        if (request.getHeader(PageCsrfToken.ASK) != null) {
            PageCsrfToken.copy(request.getAttribute(PageCsrfToken.SERVLET_ATTRIBUTE), response::setHeader);
        }
        chain.doFilter(request, response);
    }
}
