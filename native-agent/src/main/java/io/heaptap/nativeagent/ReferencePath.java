package io.heaptap.nativeagent;

import java.util.ArrayList;
import java.util.List;

/**
 * The chain that holds one sampled object, target first.
 *
 * @param steps the target, then each object holding the one before, up to the root's or static field's object
 */
public record ReferencePath(List<PathStep> steps) {
    public ReferencePath {
        steps = List.copyOf(steps);
    }

    /** Whether the walk reached this object at all. */
    public boolean found() {
        return !steps.isEmpty();
    }

    /** Whether the chain goes all the way to a GC root or a static field. */
    public boolean complete() {
        if (steps.isEmpty()) {
            return false;
        }
        HeapReferenceKind top = steps.get(steps.size() - 1).kind();
        return top.isRoot() || top == HeapReferenceKind.STATIC_FIELD;
    }

    /** The target's type, or empty when not found. */
    public String targetType() {
        return steps.isEmpty() ? "" : steps.get(0).type();
    }

    /**
     * Root first, for example
     * {@code static io.example.Holder.LIST -> java.util.ArrayList.elementData -> java.lang.Object[][17] -> io.example.Leaked}.
     */
    public String text() {
        if (steps.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        PathStep top = steps.get(steps.size() - 1);
        parts.add(origin(top));
        for (int i = steps.size() - 1; i >= 1; i--) {
            parts.add(holding(steps.get(i), steps.get(i - 1)));
        }
        parts.add(steps.get(0).type());
        return String.join(" -> ", parts);
    }

    private static String origin(PathStep top) {
        String thread = top.holder().isEmpty() ? "" : " \"" + top.holder() + "\"";
        return switch (top.kind()) {
            case STATIC_FIELD -> "static " + top.holder() + "." + fieldName(top);
            case STACK_LOCAL -> "stack local in thread" + thread + " (frame " + top.index() + ")";
            case JNI_LOCAL -> "JNI local in thread" + thread + " (frame " + top.index() + ")";
            case THREAD -> "thread" + thread;
            case JNI_GLOBAL, SYSTEM_CLASS, MONITOR, OTHER -> top.kind().label();
            default -> "[chain cut: longer than the walk recorded]";
        };
    }

    /** How {@code holder} refers to {@code held}. */
    private static String holding(PathStep holder, PathStep held) {
        String name = holder.isClass() ? "class " + holder.type() : holder.type();
        return switch (held.kind()) {
            case FIELD -> name + "." + fieldName(held);
            case ARRAY_ELEMENT -> name + "[" + held.index() + "]";
            default -> name + " (" + held.kind().label() + ")";
        };
    }

    private static String fieldName(PathStep step) {
        return step.field().isEmpty() ? "<field #" + step.index() + ">" : step.field();
    }
}
