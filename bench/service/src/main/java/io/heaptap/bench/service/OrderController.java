package io.heaptap.bench.service;

import io.heaptap.bench.service.Views.OrderPage;
import io.heaptap.bench.service.Views.OrderRequest;
import io.heaptap.bench.service.Views.OrderView;
import io.heaptap.bench.service.Views.ProductView;
import io.heaptap.bench.service.Views.Quote;
import io.heaptap.bench.service.Views.QuoteRequest;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The service's HTTP API: JSON in and out. */
@RestController
public class OrderController {
    private final OrderDesk desk;

    public OrderController(OrderDesk desk) {
        this.desk = desk;
    }

    @GetMapping("/orders/{id}")
    public OrderView order(@PathVariable("id") long id) {
        return desk.order(id);
    }

    @PutMapping("/orders/{id}")
    public OrderView replaceLines(@PathVariable("id") long id, @RequestBody OrderRequest request) {
        return desk.replaceLines(id, request);
    }

    @GetMapping("/customers/{id}/orders")
    public OrderPage customerOrders(@PathVariable("id") long id, @RequestParam(name = "page", defaultValue = "0") int page) {
        return desk.customerOrders(id, page);
    }

    @GetMapping("/products")
    public List<ProductView> search(@RequestParam("category") String category, @RequestParam(name = "q", defaultValue = "") String q) {
        return desk.search(category, q);
    }

    @PostMapping("/quotes")
    public Quote quote(@RequestBody QuoteRequest request) {
        return desk.quote(request);
    }
}
