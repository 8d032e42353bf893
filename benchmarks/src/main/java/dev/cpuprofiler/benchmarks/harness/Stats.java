package dev.cpuprofiler.benchmarks.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

final class Stats {

    private Stats() {
    }

    static double median(List<Double> values) {
        List<Double> v = clean(values);
        if (v.isEmpty()) {
            return Double.NaN;
        }
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    static double min(List<Double> values) {
        List<Double> v = clean(values);
        return v.isEmpty() ? Double.NaN : v.get(0);
    }

    static double max(List<Double> values) {
        List<Double> v = clean(values);
        return v.isEmpty() ? Double.NaN : v.get(v.size() - 1);
    }

    private static List<Double> clean(List<Double> values) {
        List<Double> v = new ArrayList<>();
        for (Double d : values) {
            if (d != null && !d.isNaN()) {
                v.add(d);
            }
        }
        Collections.sort(v);
        return v;
    }
}
