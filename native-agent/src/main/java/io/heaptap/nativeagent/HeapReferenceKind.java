package io.heaptap.nativeagent;

/** JVMTI's jvmtiHeapReferenceKind: how one object holds the next, or which GC root holds it. */
public enum HeapReferenceKind {
    CLASS(1, "class"),
    FIELD(2, "field"),
    ARRAY_ELEMENT(3, "array element"),
    CLASS_LOADER(4, "class loader"),
    SIGNERS(5, "signers"),
    PROTECTION_DOMAIN(6, "protection domain"),
    INTERFACE(7, "interface"),
    STATIC_FIELD(8, "static field"),
    CONSTANT_POOL(9, "constant pool"),
    SUPERCLASS(10, "superclass"),
    JNI_GLOBAL(21, "JNI global"),
    SYSTEM_CLASS(22, "system class"),
    MONITOR(23, "monitor"),
    STACK_LOCAL(24, "stack local"),
    JNI_LOCAL(25, "JNI local"),
    THREAD(26, "thread"),
    OTHER(27, "other root"),
    UNKNOWN(0, "unknown reference");

    private final int code;
    private final String label;

    HeapReferenceKind(int code, String label) {
        this.code = code;
        this.label = label;
    }

    public static HeapReferenceKind of(int code) {
        for (HeapReferenceKind k : values()) {
            if (k.code == code) {
                return k;
            }
        }
        return UNKNOWN;
    }

    public String label() {
        return label;
    }

    /** A GC root: where a chain starts. */
    public boolean isRoot() {
        return code >= JNI_GLOBAL.code;
    }
}
