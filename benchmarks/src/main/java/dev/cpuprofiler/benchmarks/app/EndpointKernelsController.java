package dev.cpuprofiler.benchmarks.app;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Two endpoints that burn a fixed amount of CPU each, in kernels of their own, for the CPU-by-endpoint benchmark:
 * {@code GET /bench/endpoints/alpha/{n}} runs {@link #ALPHA_OPS} {@link CpuKernel} ops in {@link #alphaWork},
 * {@code GET /bench/endpoints/beta} {@link #BETA_OPS} in {@link #betaWork}. Fixed work, not fixed time: a request's
 * CPU does not depend on how busy the machine is, so requests × the CPU of one (measured on a platform thread) is
 * the truth.
 */
@RestController
public class EndpointKernelsController {

    public static final int ALPHA_OPS = 40;
    public static final int BETA_OPS = 100;

    private final ThreadLocal<CpuKernel> kernels = ThreadLocal.withInitial(() -> new CpuKernel(System.nanoTime()));

    @GetMapping("/bench/endpoints/alpha/{n}")
    public String alpha(@PathVariable int n) {
        return Long.toString(alphaWork(kernels.get()) + n);
    }

    @GetMapping("/bench/endpoints/beta")
    public String beta() {
        return Long.toString(betaWork(kernels.get()));
    }

    /** One alpha request's work. */
    public static long alphaWork() {
        return alphaWork(new CpuKernel(7));
    }

    /** One beta request's work. */
    public static long betaWork() {
        return betaWork(new CpuKernel(11));
    }

    static long alphaWork(CpuKernel kernel) {
        long x = 0;
        for (int i = 0; i < ALPHA_OPS; i++) {
            x ^= kernel.op();
        }
        return x;
    }

    static long betaWork(CpuKernel kernel) {
        long x = 0;
        for (int i = 0; i < BETA_OPS; i++) {
            x ^= kernel.op();
        }
        return x;
    }
}
