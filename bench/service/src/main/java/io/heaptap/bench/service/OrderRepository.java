package io.heaptap.bench.service;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** JPQL with fetch joins, paging with a count query, and an aggregate. */
public interface OrderRepository extends JpaRepository<PurchaseOrder, Long> {
    @Query("select distinct o from PurchaseOrder o join fetch o.customer left join fetch o.lines l left join fetch l.product"
            + " where o.id = ?1")
    Optional<PurchaseOrder> findWhole(long id);

    @Query(value = "select o from PurchaseOrder o where o.customer.id = ?1 order by o.updatedAt desc, o.id desc",
            countQuery = "select count(o) from PurchaseOrder o where o.customer.id = ?1")
    Page<PurchaseOrder> findByCustomer(long customerId, Pageable page);

    @Query("select o.id, count(l) from PurchaseOrder o left join o.lines l where o.id in ?1 group by o.id")
    List<Object[]> countLines(Collection<Long> ids);
}
