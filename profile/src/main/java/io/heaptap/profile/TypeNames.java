package io.heaptap.profile;

/** Turns JVM type signatures ({@code [Ljava/lang/String;}) into Java names ({@code java.lang.String[]}). */
public final class TypeNames {
    private TypeNames() {
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
        return name + "[]".repeat(dims);
    }
}
