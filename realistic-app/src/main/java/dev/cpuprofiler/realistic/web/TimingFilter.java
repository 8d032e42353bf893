package dev.cpuprofiler.realistic.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/** Adds a Server-Timing header and logs requests slower than a second. */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
public class TimingFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(TimingFilter.class);

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long start = System.nanoTime();
        try {
            chain.doFilter(request, response);
        } finally {
            long micros = (System.nanoTime() - start) / 1_000;
            if (!response.isCommitted()) {
                response.setHeader("Server-Timing", "app;dur=" + micros / 1000.0);
            }
            if (micros > 1_000_000) {
                log.info("slow request {} {} took {} ms", request.getMethod(), request.getRequestURI(), micros / 1000);
            }
        }
    }
}
