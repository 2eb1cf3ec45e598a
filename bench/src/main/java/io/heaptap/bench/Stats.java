package io.heaptap.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Median and spread of repeated measurements. */
record Stats(List<Double> values) {
    double median() {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    double min() {
        return Collections.min(values);
    }

    double max() {
        return Collections.max(values);
    }

    /** "0.987 (0.975–0.995)": the median, then min and max over the repetitions. */
    String ratio() {
        return String.format(Locale.ROOT, "%.3f (%.3f–%.3f)", median(), min(), max());
    }

    double mean() {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    /**
     * "0.987 (0.979–0.995)": the mean and its 95% interval by Student's t, from the values' own spread;
     * "0.987 (one value)" when there is no spread to read.
     */
    String meanInterval() {
        if (values.size() < 2) {
            return String.format(Locale.ROOT, "%.3f (one value)", mean());
        }
        return String.format(Locale.ROOT, "%.3f (%.3f–%.3f)", mean(), mean() - halfWidth95(), mean() + halfWidth95());
    }

    /** Half the width of the mean's 95% interval (Student's t); NaN with fewer than two values. */
    double halfWidth95() {
        int n = values.size();
        if (n < 2) {
            return Double.NaN;
        }
        double mean = mean();
        double squares = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
        return studentT975(n - 1) * Math.sqrt(squares / (n - 1) / n);
    }

    /** Student's t, two-sided 95% (the 0.975 quantile), for {@code df} degrees of freedom. */
    static double studentT975(int df) {
        if (df < 1) {
            throw new IllegalArgumentException("degrees of freedom must be positive: " + df);
        }
        return df <= T975.length ? T975[df - 1] : 1.96 + 2.4 / df;  // within 0.002 of the quantile past 30
    }

    /** The 0.975 quantiles for 1 to 30 degrees of freedom (any statistics table). */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
        2.056, 2.052, 2.048, 2.045, 2.042};

    String plain() {
        return String.format(Locale.ROOT, "%.1f (%.1f–%.1f)", median(), min(), max());
    }

    String millis() {
        return String.format(Locale.ROOT, "%.0f ms (%.0f–%.0f)", median(), min(), max());
    }
}
