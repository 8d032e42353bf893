package dev.cpuprofiler.autoconfigure.requests;

import java.time.Duration;

/**
 * {@link TwoKernelsRun} in a JVM of its own (another JDK, virtual threads), for {@link CpuByEndpointTest}: one run per
 * argument, each printed as one {@code RESULT} line.
 */
public final class TwoKernelsChild {

    private TwoKernelsChild() {
    }

    /** @param args runs as {@code engine:virtual}, e.g. {@code jfr-execution:true}; one {@code RESULT} line each */
    public static void main(String[] args) throws Exception {
        for (String spec : args) {
            String[] parts = spec.split(":");
            TwoKernelsRun.Result r = TwoKernelsRun.run(parts[0], Boolean.parseBoolean(parts[1]),
                    Duration.ofSeconds(2));
            System.out.println("RESULT " + spec + " alpha=" + r.alphaShare() + " beta=" + r.betaShare()
                    + " alphaUnderBeta=" + r.alphaUnderBeta() + " betaUnderAlpha=" + r.betaUnderAlpha()
                    + " alphaSamples=" + r.alphaSamples() + " betaSamples=" + r.betaSamples()
                    + " groupEndpoint=" + r.collapsedByEndpoint().lines().findFirst().orElse("").replace(' ', '_')
                    + " endpoints=" + r.profile().requests().endpoints().size() + " " + r);
        }
        System.exit(0);
    }
}
