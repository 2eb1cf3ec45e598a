package io.heaptap.bench.service;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.springframework.boot.CommandLineRunner;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Seeds the catalog before the service reports ready: products, customers and orders with 1-5 lines,
 * the same every run (a fixed seed). One thread, in order, so ids are 1..N as {@link Catalog} says.
 */
@Component
public class Seeder implements CommandLineRunner {
    private static final String[] WORDS = {"amber", "basic", "classic", "deluxe", "eco", "folding", "grand", "heavy",
        "indoor", "junior", "large", "mini", "nordic", "pocket", "royal", "smart"};
    private final ProductRepository products;
    private final CustomerRepository customers;
    private final OrderRepository orders;
    private final TransactionTemplate transactions;

    public Seeder(ProductRepository products, CustomerRepository customers, OrderRepository orders, TransactionTemplate transactions) {
        this.products = products;
        this.customers = customers;
        this.orders = orders;
        this.transactions = transactions;
    }

    @Override
    public void run(String... args) {
        SplittableRandom random = new SplittableRandom(37);
        List<Product> catalog = new ArrayList<>();
        for (int i = 1; i <= Catalog.PRODUCTS; i++) {
            String category = Catalog.CATEGORIES[i % Catalog.CATEGORIES.length];
            String name = WORDS[random.nextInt(WORDS.length)] + " " + WORDS[random.nextInt(WORDS.length)] + " " + category + " " + i;
            catalog.add(new Product(Catalog.sku(i), name, category, 199 + random.nextInt(20_000)));
        }
        List<Product> savedProducts = products.saveAll(catalog);
        List<Customer> people = new ArrayList<>();
        for (int i = 1; i <= Catalog.CUSTOMERS; i++) {
            people.add(new Customer("customer " + i, "customer" + i + "@example.com", i % 4));
        }
        List<Customer> savedCustomers = customers.saveAll(people);
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        for (int batch = 0; batch < Catalog.ORDERS; batch += 500) {
            int from = batch;
            transactions.executeWithoutResult(status -> {
                for (int i = from; i < Math.min(Catalog.ORDERS, from + 500); i++) {
                    PurchaseOrder order = new PurchaseOrder(savedCustomers.get(random.nextInt(savedCustomers.size())),
                            start.plusSeconds(60L * i));
                    List<OrderLine> lines = new ArrayList<>();
                    for (int l = 1 + random.nextInt(5); l > 0; l--) {
                        lines.add(new OrderLine(savedProducts.get(random.nextInt(savedProducts.size())), 1 + random.nextInt(4)));
                    }
                    order.replaceLines(lines, order.getUpdatedAt());
                    orders.save(order);
                }
            });
        }
    }
}
