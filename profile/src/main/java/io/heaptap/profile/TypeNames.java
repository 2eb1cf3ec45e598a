package io.heaptap.profile;

import java.util.regex.Pattern;

/** Turns JVM type signatures ({@code [Ljava/lang/String;}) into Java names ({@code java.lang.String[]}). */
public final class TypeNames {
    /** Hidden classes (lambdas, method handles) carry an address that changes with every run. */
    private static final Pattern HIDDEN_CLASS_SUFFIX = Pattern.compile("(\\$\\$Lambda)(?:\\$\\d+)?[./]0x[0-9a-f]+|[./]0x[0-9a-f]{8,}");

    private TypeNames() {
    }

    /**
     * A class name that is the same in every run: {@code Foo$$Lambda$19.0x00007f88a8026660} (JDK 17)
     * and {@code Foo$$Lambda/0x000001d8} (JDK 21+) both become {@code Foo$$Lambda}. Profiles of
     * different runs then merge by name and pprof addresses stay stable.
     */
    public static String stable(String className) {
        return HIDDEN_CLASS_SUFFIX.matcher(className).replaceAll("$1");
    }

    /** The Java name of a field-descriptor signature; anything unrecognised is returned as is. */
    public static String fromSignature(String signature) {
        int dims = 0;
        while (dims < signature.length() && signature.charAt(dims) == '[') {
            dims++;
        }
        String element = signature.substring(dims);
        String name = switch (element) {
            case "Z" -> "boolean";
            case "B" -> "byte";
            case "C" -> "char";
            case "S" -> "short";
            case "I" -> "int";
            case "J" -> "long";
            case "F" -> "float";
            case "D" -> "double";
            default -> element.length() > 2 && element.charAt(0) == 'L' && element.endsWith(";")
                    ? element.substring(1, element.length() - 1).replace('/', '.')
                    : element;
        };
        return stable(name) + "[]".repeat(dims);
    }
}
