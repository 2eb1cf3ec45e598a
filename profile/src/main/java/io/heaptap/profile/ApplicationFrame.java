package io.heaptap.profile;

import java.util.List;

/**
 * The frame a user would go and fix: the innermost one outside the JDK and heaptap. A leak row that
 * says "allocated at HashMap.newNode" or "Arrays.copyOf" names where every Java program allocates;
 * the application's call into them is the line worth reading. The full stack stays in every profile.
 */
public final class ApplicationFrame {
    // The JDK's own code, by the packages its modules export or use internally.
    private static final List<String> JDK = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.");
    // heaptap's own packages (not io.heaptap.* as a whole: demos, benchmarks and tests run there as
    // the application).
    private static final List<String> HEAPTAP = List.of("io.heaptap.agent.", "io.heaptap.launcher.",
            "io.heaptap.session.", "io.heaptap.profile.", "io.heaptap.nativeagent.", "io.heaptap.jmx.",
            "io.heaptap.http.", "io.heaptap.cli.", "io.heaptap.attach.", "io.heaptap.wire.");

    private ApplicationFrame() {
    }

    /** The innermost application frame of a stack (innermost first); the innermost frame when there is none. */
    public static Frame of(List<Frame> stack) {
        for (Frame f : stack) {
            if (!f.isSynthetic() && !isPlatform(f)) {
                return f;
            }
        }
        return stack.get(0);
    }

    /** Whether a frame is the JDK's or heaptap's own. */
    public static boolean isPlatform(Frame frame) {
        String name = frame.className();
        return startsWithAny(name, JDK) || startsWithAny(name, HEAPTAP);
    }

    private static boolean startsWithAny(String name, List<String> prefixes) {
        for (String p : prefixes) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
