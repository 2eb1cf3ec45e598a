package io.heaptap.bench.service;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** What the service reads and writes as JSON (Jackson binds these records). */
public final class Views {
    private Views() {
    }

    public record LineRequest(String sku, int quantity) {
    }

    public record OrderRequest(List<LineRequest> lines, String note) {
    }

    public record QuoteRequest(long customerId, List<LineRequest> lines) {
    }

    public record LineView(String sku, String product, int quantity, BigDecimal unitPrice, BigDecimal lineTotal) {
    }

    public record OrderView(long id, long customerId, String customer, String status, Instant updatedAt, BigDecimal total,
            List<LineView> lines) {
    }

    public record OrderSummary(long id, String status, Instant updatedAt, BigDecimal total, long lineCount) {
    }

    public record OrderPage(long customerId, int page, long totalOrders, List<OrderSummary> orders) {
    }

    public record ProductView(String sku, String name, String category, BigDecimal price) {
    }

    public record Quote(long customerId, int items, BigDecimal subtotal, BigDecimal discount, BigDecimal total, List<LineView> lines) {
    }

    public static BigDecimal money(long cents) {
        return BigDecimal.valueOf(cents, 2);
    }
}
