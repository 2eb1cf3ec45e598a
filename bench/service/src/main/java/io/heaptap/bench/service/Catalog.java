package io.heaptap.bench.service;

import java.util.Locale;

/**
 * The size of the seeded data, shared by the service (which seeds it) and the load client (which asks
 * for what exists). Ids are 1..N in seeding order: one thread seeds, with identity columns.
 */
public final class Catalog {
    public static final int PRODUCTS = 400;
    public static final int CUSTOMERS = 300;
    public static final int ORDERS = 3000;
    public static final String[] CATEGORIES = {"books", "garden", "kitchen", "music", "office", "outdoor", "tools", "toys"};

    private Catalog() {
    }

    public static String sku(int product) {
        return String.format(Locale.ROOT, "SKU-%05d", product);
    }
}
