package io.heaptap.nativeagent;

/**
 * One object on a reference chain and the reference that holds it.
 *
 * @param type    the object's class as a Java name ({@code java.lang.Object[]}); for a class object the class it is
 * @param isClass the object is a class (its static fields hold the next step)
 * @param kind    how the previous step (towards the root) holds this object, or the root kind
 * @param index   the array index for {@link HeapReferenceKind#ARRAY_ELEMENT}, the frame depth for locals
 * @param field   the field's name for (static) field references; empty when not a field or unknown
 * @param holder  for a static field the class that declares it, for a thread or a local the thread's name; else empty
 */
public record PathStep(String type, boolean isClass, HeapReferenceKind kind, int index, String field, String holder) {
}
