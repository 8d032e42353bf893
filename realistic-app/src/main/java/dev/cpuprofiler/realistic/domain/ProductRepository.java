package dev.cpuprofiler.realistic.domain;

import java.util.List;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Slice;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface ProductRepository extends JpaRepository<Product, Long> {

    /** A category's products, or those of its sub-categories for a department. */
    @Query("select p from Product p join fetch p.category c where c.id = :categoryId or c.parent.id = :categoryId"
            + " order by p.name")
    Slice<Product> findPageInCategory(@Param("categoryId") long categoryId, Pageable page);

    List<Product> findTop40ByNameContainingIgnoreCaseOrderByNameAsc(String text);
}
