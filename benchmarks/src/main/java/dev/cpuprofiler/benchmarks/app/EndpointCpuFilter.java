package dev.cpuprofiler.benchmarks.app;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The truth for the CPU-by-endpoint benchmark: the CPU each request of {@link EndpointKernelsController} used on its
 * thread, from the filter chain's start to its end (the thread's CPU clock), summed per endpoint. First in the chain,
 * so that its window holds the server observation's (whose scope tells the profiler which request a thread serves). A virtual thread
 * has no CPU clock here ({@code -1}): its requests are counted, not measured.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class EndpointCpuFilter extends OncePerRequestFilter {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** CPU nanoseconds and requests, per endpoint: {alpha, beta}. */
    private final AtomicLong[] cpu = {new AtomicLong(), new AtomicLong()};
    private final AtomicLong[] requests = {new AtomicLong(), new AtomicLong()};
    private final AtomicLong unmeasured = new AtomicLong();

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().startsWith("/bench/endpoints/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        int endpoint = request.getRequestURI().startsWith("/bench/endpoints/alpha/") ? 0 : 1;
        long start = THREADS.getCurrentThreadCpuTime();
        try {
            chain.doFilter(request, response);
        } finally {
            long end = THREADS.getCurrentThreadCpuTime();
            if (start >= 0 && end >= 0) {
                cpu[endpoint].addAndGet(end - start);
                requests[endpoint].incrementAndGet();
            } else {
                unmeasured.incrementAndGet();
            }
        }
    }

    /** Starts counting afresh. */
    public void reset() {
        for (int i = 0; i < 2; i++) {
            cpu[i].set(0);
            requests[i].set(0);
        }
        unmeasured.set(0);
    }

    /** CPU nanoseconds of the measured requests of an endpoint (0 alpha, 1 beta). */
    public long cpuNanos(int endpoint) {
        return cpu[endpoint].get();
    }

    public long measuredRequests(int endpoint) {
        return requests[endpoint].get();
    }

    /** Requests on threads without a CPU clock (virtual threads). */
    public long unmeasured() {
        return unmeasured.get();
    }
}
