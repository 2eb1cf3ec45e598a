package io.heaptap.profile;

/**
 * One stack frame, already resolved to names (the native agent resolves them while the method is
 * alive, so a frame of a since-unloaded class still has its name).
 *
 * @param className  binary class name, e.g. {@code com.example.Cache}; empty for synthetic frames
 * @param methodName method name, or a bracketed label for synthetic frames
 * @param sourceFile source file name, or {@code null} when unknown
 * @param line       line number, or {@code -1} when unknown
 */
public record Frame(String className, String methodName, String sourceFile, int line) {

    /** A frame that stands for something other than a Java method ("[stack table full]"). */
    public static Frame synthetic(String label) {
        return new Frame("", label, null, -1);
    }

    public boolean isSynthetic() {
        return className.isEmpty();
    }

    /** {@code com.example.Cache.put}: the function name used by every format. */
    public String functionName() {
        return isSynthetic() ? methodName : className + "." + methodName;
    }

    /** {@code com.example.Cache.put(Cache.java:42)}, as in a Java stack trace. */
    public String displayName() {
        if (isSynthetic()) {
            return methodName;
        }
        String where = sourceFile == null ? "Unknown Source" : line >= 0 ? sourceFile + ":" + line : sourceFile;
        return functionName() + "(" + where + ")";
    }
}
