package io.heaptap.bench.service;

import io.heaptap.bench.service.Views.LineRequest;
import io.heaptap.bench.service.Views.LineView;
import io.heaptap.bench.service.Views.OrderPage;
import io.heaptap.bench.service.Views.OrderRequest;
import io.heaptap.bench.service.Views.OrderSummary;
import io.heaptap.bench.service.Views.OrderView;
import io.heaptap.bench.service.Views.ProductView;
import io.heaptap.bench.service.Views.Quote;
import io.heaptap.bench.service.Views.QuoteRequest;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.server.ResponseStatusException;

/** The service's work: transactions over the repositories, and mapping entities to views. */
@Service
public class OrderDesk {
    private final OrderRepository orders;
    private final ProductRepository products;
    private final CustomerRepository customers;

    public OrderDesk(OrderRepository orders, ProductRepository products, CustomerRepository customers) {
        this.orders = orders;
        this.products = products;
        this.customers = customers;
    }

    @Transactional(readOnly = true)
    public OrderView order(long id) {
        return view(orders.findWhole(id).orElseThrow(() -> notFound("order " + id)));
    }

    @Transactional
    public OrderView replaceLines(long id, OrderRequest request) {
        PurchaseOrder order = orders.findWhole(id).orElseThrow(() -> notFound("order " + id));
        Map<String, Product> bySku = productsFor(request.lines());
        List<OrderLine> lines = new ArrayList<>();
        for (LineRequest line : request.lines()) {
            lines.add(new OrderLine(bySku.get(line.sku()), line.quantity()));
        }
        order.replaceLines(lines, Instant.now());
        orders.flush();
        return view(order);
    }

    @Transactional(readOnly = true)
    public OrderPage customerOrders(long customerId, int page) {
        Page<PurchaseOrder> found = orders.findByCustomer(customerId, PageRequest.of(page, 10));
        Map<Long, Long> lineCounts = new HashMap<>();
        if (found.hasContent()) {
            for (Object[] row : orders.countLines(found.map(PurchaseOrder::getId).getContent())) {
                lineCounts.put((Long) row[0], (Long) row[1]);
            }
        }
        List<OrderSummary> summaries = found.map(o -> new OrderSummary(o.getId(), o.getStatus(), o.getUpdatedAt(),
                Views.money(o.getTotalCents()), lineCounts.getOrDefault(o.getId(), 0L))).getContent();
        return new OrderPage(customerId, page, found.getTotalElements(), summaries);
    }

    @Transactional(readOnly = true)
    public List<ProductView> search(String category, String text) {
        return products.findTop20ByCategoryAndNameContainingIgnoreCaseOrderByPriceCentsAsc(category, text).stream()
                .map(p -> new ProductView(p.getSku(), p.getName(), p.getCategory(), Views.money(p.getPriceCents())))
                .toList();
    }

    @Transactional(readOnly = true)
    public Quote quote(QuoteRequest request) {
        Customer customer = customers.findById(request.customerId()).orElseThrow(() -> notFound("customer " + request.customerId()));
        Map<String, Product> bySku = productsFor(request.lines());
        List<LineView> lines = new ArrayList<>();
        long subtotal = 0;
        int items = 0;
        for (LineRequest line : request.lines()) {
            Product p = bySku.get(line.sku());
            lines.add(new LineView(p.getSku(), p.getName(), line.quantity(), Views.money(p.getPriceCents()),
                    Views.money(p.getPriceCents() * line.quantity())));
            subtotal += p.getPriceCents() * line.quantity();
            items += line.quantity();
        }
        BigDecimal gross = Views.money(subtotal);
        BigDecimal discount = gross.multiply(BigDecimal.valueOf(5L * customer.getTier(), 2)).setScale(2, RoundingMode.HALF_EVEN);
        return new Quote(customer.getId(), items, gross, discount, gross.subtract(discount), lines);
    }

    private Map<String, Product> productsFor(List<LineRequest> lines) {
        if (lines == null || lines.stream().anyMatch(l -> l.sku() == null || l.quantity() < 1)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "every line needs a sku and a quantity of at least 1");
        }
        Map<String, Product> bySku = products.findBySkuIn(lines.stream().map(LineRequest::sku).collect(Collectors.toSet()))
                .stream().collect(Collectors.toMap(Product::getSku, Function.identity()));
        for (LineRequest line : lines) {
            if (!bySku.containsKey(line.sku())) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "no product " + line.sku());
            }
        }
        return bySku;
    }

    private static OrderView view(PurchaseOrder order) {
        List<LineView> lines = order.getLines().stream()
                .map(l -> new LineView(l.getProduct().getSku(), l.getProduct().getName(), l.getQuantity(),
                        Views.money(l.getUnitPriceCents()), Views.money(l.getUnitPriceCents() * l.getQuantity())))
                .toList();
        return new OrderView(order.getId(), order.getCustomer().getId(), order.getCustomer().getName(), order.getStatus(),
                order.getUpdatedAt(), Views.money(order.getTotalCents()), lines);
    }

    private static ResponseStatusException notFound(String what) {
        return new ResponseStatusException(HttpStatus.NOT_FOUND, "no " + what);
    }
}
