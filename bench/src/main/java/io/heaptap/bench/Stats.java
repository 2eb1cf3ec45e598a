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

    String plain() {
        return String.format(Locale.ROOT, "%.1f (%.1f–%.1f)", median(), min(), max());
    }

    String millis() {
        return String.format(Locale.ROOT, "%.0f ms (%.0f–%.0f)", median(), min(), max());
    }
}
