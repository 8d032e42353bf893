package dev.cpuprofiler.benchmarks.whatchanged;

/**
 * The CPU work of {@code GET /orbit}: a planet's orbit around its sun, integrated step by step (leapfrog, unit mass,
 * no allocation). All its time is its own, in {@link #step}: the method a profile must name when orbit requests grow.
 */
public final class OrbitKernel {

    private OrbitKernel() {
    }

    /** Integrates {@code steps} time steps of a circular orbit and returns where the planet ends (to be consumed). */
    public static double step(long steps) {
        double x = 1;
        double y = 0;
        double vx = 0;
        double vy = 1;
        double dt = 1e-3;
        for (long i = 0; i < steps; i++) {
            double r2 = x * x + y * y;
            double pull = dt / (r2 * Math.sqrt(r2));
            vx -= x * pull;
            vy -= y * pull;
            x += vx * dt;
            y += vy * dt;
        }
        return x + y;
    }
}
