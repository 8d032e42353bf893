package dev.cpuprofiler.realistic.domain;

import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface PurchaseOrderRepository extends JpaRepository<PurchaseOrder, Long> {

    @Query("select distinct o from PurchaseOrder o join fetch o.lines l join fetch l.product p join fetch p.category"
            + " where o.customer.id = :customerId order by o.placedOn desc")
    List<PurchaseOrder> findWithLinesByCustomer(@Param("customerId") long customerId);
}
