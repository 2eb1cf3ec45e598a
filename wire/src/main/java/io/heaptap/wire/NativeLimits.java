package io.heaptap.wire;

/**
 * The largest values the native agent accepts, stated once on the Java side. The native side
 * states them once too (limits.h: kMaxStackDepth, kMaxPathDepth) and clamps to them;
 * NativeConstantsTest checks that the two agree, so a value Java accepts is never cut natively.
 */
public final class NativeLimits {
    /** Stack frames kept per sample. */
    public static final int MAX_STACK_DEPTH = 2048;
    /** References a reference-path search follows from a GC root or static field. */
    public static final int MAX_PATH_DEPTH = 1024;

    private NativeLimits() {
    }
}
