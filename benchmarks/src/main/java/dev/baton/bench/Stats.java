package dev.baton.bench;

import java.util.Arrays;
import java.util.List;

/** Percentiles of a sample of measurements. */
record Stats(double[] sorted) {
    static Stats of(double[] values) {
        double[] copy = values.clone();
        Arrays.sort(copy);
        return new Stats(copy);
    }

    static Stats of(List<Double> values) {
        return of(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    double percentile(double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    int count() {
        return sorted.length;
    }

    double median() {
        return percentile(50);
    }

    double min() {
        return sorted.length == 0 ? Double.NaN : sorted[0];
    }

    double max() {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1];
    }
}
