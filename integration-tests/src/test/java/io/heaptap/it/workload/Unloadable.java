package io.heaptap.it.workload;

/** Loaded by a throw-away class loader in {@link UnloadingTarget}, so that it can be unloaded. */
public final class Unloadable {
    public static volatile Object sink;
    /** Objects of a class of this loader, kept until the loader is dropped: tracked, then unloaded. */
    static final java.util.List<Item> KEPT = new java.util.ArrayList<>();

    private Unloadable() {
    }

    /** An object whose class goes away with the loader. */
    static final class Item {
        final long[] payload = new long[32];
    }

    public static void allocate(int count) {
        for (int i = 0; i < count; i++) {
            sink = new int[256];
            if (i % 4 == 0) {
                KEPT.add(new Item());
            }
        }
    }
}
