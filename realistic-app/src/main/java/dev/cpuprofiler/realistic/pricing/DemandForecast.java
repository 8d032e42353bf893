package dev.cpuprofiler.realistic.pricing;

/** Holt's linear forecast of weekly units: the level and trend now, and how well the model fits the history. */
public record DemandForecast(double level, double trend, double alpha, double beta, double rmse) {

    public double unitsIn(int weeks) {
        return Math.max(0, level + trend * weeks);
    }
}
