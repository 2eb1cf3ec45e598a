package io.heaptap.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/** The benchmarks' command lines: {@code --quick}, and {@code --name value} pairs, read the same way by each. */
public final class BenchArguments {
    private BenchArguments() {
    }

    /** Options by name ({@code quick} is "true" when given); an argument of another form is refused. */
    public static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--quick")) {
                opts.put("quick", "true");
            } else if (args[i].startsWith("--") && i + 1 < args.length) {
                opts.put(args[i].substring(2), args[++i]);
            } else {
                throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        return opts;
    }
}
