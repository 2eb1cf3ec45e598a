package io.heaptap.it.workload;

/** Loaded by a throw-away class loader in {@link UnloadingTarget}, so that it can be unloaded. */
public final class Unloadable {
    public static volatile Object sink;

    private Unloadable() {
    }

    public static void allocate(int count) {
        for (int i = 0; i < count; i++) {
            sink = new int[256];
        }
    }
}
