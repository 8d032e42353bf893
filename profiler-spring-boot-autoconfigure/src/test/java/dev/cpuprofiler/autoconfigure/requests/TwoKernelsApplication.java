package dev.cpuprofiler.autoconfigure.requests;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Two endpoints that burn CPU in two kernels of their own, a known amount per request: what CPU by endpoint must
 * tell apart. {@code /alpha/{n}} spends about 2 ms in {@link Kernels#alphaKernel}, {@code /beta} about twice that in
 * {@link Kernels#betaKernel}. A {@code @Scheduled} task burns too, 4 ms every 20 ms, in {@link Ticker#tick}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
@Import({TwoKernelsApplication.Kernels.class, TwoKernelsApplication.Ticker.class})
public class TwoKernelsApplication {

    /** A scheduled task, named in profiles as {@code @Scheduled Ticker.tick}. */
    public static class Ticker {

        private volatile long sink;

        @Scheduled(fixedDelay = 20)
        public void tick() {
            long end = System.nanoTime() + 4_000_000L;
            long x = 3;
            while (System.nanoTime() < end) {
                x = x * 31 + (x >>> 7);
            }
            sink = x;
        }
    }

    @RestController
    public static class Kernels {

        @GetMapping("/alpha/{n}")
        public String alpha(@PathVariable int n) {
            return Long.toString(alphaKernel(2_000_000L + n));
        }

        @GetMapping("/beta")
        public String beta() {
            return Long.toString(betaKernel(4_000_000L));
        }

        static long alphaKernel(long nanos) {
            long end = System.nanoTime() + nanos;
            long x = 1;
            while (System.nanoTime() < end) {
                for (int i = 0; i < 200; i++) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
            }
            return x;
        }

        static long betaKernel(long nanos) {
            long end = System.nanoTime() + nanos;
            double y = 1;
            while (System.nanoTime() < end) {
                for (int i = 0; i < 200; i++) {
                    y = Math.sqrt(y + i) * 1.0000001;
                }
            }
            return (long) y;
        }
    }
}
