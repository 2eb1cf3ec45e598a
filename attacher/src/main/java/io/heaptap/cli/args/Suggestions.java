package io.heaptap.cli.args;

import java.util.List;

/** The nearest known name to a typo, for "did you mean" in errors. */
public final class Suggestions {
    private Suggestions() {
    }

    /** The name at most two edits from the typed one, the nearest first; null when none is that near. */
    public static String nearest(String typed, List<String> names) {
        String best = null;
        int bestDistance = 3;
        for (String n : names) {
            int d = distance(typed, n);
            if (d < bestDistance) {
                best = n;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance: insertions, deletions and substitutions. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
