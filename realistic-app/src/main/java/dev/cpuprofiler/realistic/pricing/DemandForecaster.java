package dev.cpuprofiler.realistic.pricing;

import org.springframework.stereotype.Component;

/**
 * Forecasts a product's weekly demand from its sales history with Holt's double exponential smoothing, fitting the
 * two smoothing factors by a grid search over the whole history (the way a small shop does it when nobody looked
 * at the cost): {@link #sumOfSquaredErrors} is where this application burns most of its CPU.
 */
@Component
public class DemandForecaster {

    static final int GRID = 16;

    public DemandForecast forecast(String weeklySalesCsv) {
        double[] history = parse(weeklySalesCsv);
        double bestError = Double.MAX_VALUE;
        double bestAlpha = 0.5;
        double bestBeta = 0.1;
        for (int a = 1; a <= GRID; a++) {
            double alpha = a / (GRID + 1.0);
            for (int b = 1; b <= GRID; b++) {
                double beta = b / (GRID + 1.0);
                double error = sumOfSquaredErrors(history, alpha, beta);
                if (error < bestError) {
                    bestError = error;
                    bestAlpha = alpha;
                    bestBeta = beta;
                }
            }
        }
        double[] state = smooth(history, bestAlpha, bestBeta);
        return new DemandForecast(state[0], state[1], bestAlpha, bestBeta,
                Math.sqrt(bestError / Math.max(1, history.length - 1)));
    }

    /** One-step-ahead squared errors of Holt's method over the history. */
    static double sumOfSquaredErrors(double[] history, double alpha, double beta) {
        double level = history[0];
        double trend = history.length > 1 ? history[1] - history[0] : 0;
        double sum = 0;
        for (int t = 1; t < history.length; t++) {
            double predicted = level + trend;
            double error = history[t] - predicted;
            sum += error * error;
            double previousLevel = level;
            level = alpha * history[t] + (1 - alpha) * predicted;
            trend = beta * (level - previousLevel) + (1 - beta) * trend;
        }
        return sum;
    }

    private static double[] smooth(double[] history, double alpha, double beta) {
        double level = history[0];
        double trend = history.length > 1 ? history[1] - history[0] : 0;
        for (int t = 1; t < history.length; t++) {
            double previousLevel = level;
            level = alpha * history[t] + (1 - alpha) * (level + trend);
            trend = beta * (level - previousLevel) + (1 - beta) * trend;
        }
        return new double[] {level, trend};
    }

    static double[] parse(String csv) {
        int count = 1;
        for (int i = 0; i < csv.length(); i++) {
            if (csv.charAt(i) == ',') {
                count++;
            }
        }
        double[] values = new double[count];
        int index = 0;
        long current = 0;
        for (int i = 0; i < csv.length(); i++) {
            char c = csv.charAt(i);
            if (c == ',') {
                values[index++] = current;
                current = 0;
            } else {
                current = current * 10 + (c - '0');
            }
        }
        values[index] = current;
        return values;
    }
}
