package io.heaptap.bench.service;

import org.springframework.data.jpa.repository.JpaRepository;

import java.util.Collection;
import java.util.List;

/** Derived queries, as a service written with Spring Data has them. */
public interface ProductRepository extends JpaRepository<Product, Long> {
    List<Product> findBySkuIn(Collection<String> skus);

    List<Product> findTop20ByCategoryAndNameContainingIgnoreCaseOrderByPriceCentsAsc(String category, String text);
}
