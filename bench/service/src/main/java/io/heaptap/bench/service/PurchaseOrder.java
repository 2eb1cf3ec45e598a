package io.heaptap.bench.service;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

@Entity
public class PurchaseOrder {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;
    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    private Customer customer;
    private String status;
    private Instant updatedAt;
    private long totalCents;
    @OneToMany(mappedBy = "order", cascade = CascadeType.ALL, orphanRemoval = true)
    @OrderBy("id")
    private List<OrderLine> lines = new ArrayList<>();

    protected PurchaseOrder() {
    }

    public PurchaseOrder(Customer customer, Instant updatedAt) {
        this.customer = customer;
        this.status = "OPEN";
        this.updatedAt = updatedAt;
    }

    /** Replaces every line (the old ones are deleted: orphans), so the tables keep their size under load. */
    public void replaceLines(List<OrderLine> newLines, Instant now) {
        lines.clear();
        long total = 0;
        for (OrderLine line : newLines) {
            line.attachTo(this);
            lines.add(line);
            total += line.getQuantity() * line.getUnitPriceCents();
        }
        totalCents = total;
        updatedAt = now;
        status = newLines.isEmpty() ? "EMPTY" : "OPEN";
    }

    public Long getId() {
        return id;
    }

    public Customer getCustomer() {
        return customer;
    }

    public String getStatus() {
        return status;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }

    public long getTotalCents() {
        return totalCents;
    }

    public List<OrderLine> getLines() {
        return lines;
    }
}
