package dev.cpuprofiler.realistic.web;

import dev.cpuprofiler.realistic.catalogue.CatalogueService;
import dev.cpuprofiler.realistic.catalogue.ProductView;
import dev.cpuprofiler.realistic.domain.Customer;
import dev.cpuprofiler.realistic.orders.Statement;
import dev.cpuprofiler.realistic.orders.StatementService;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;
import java.util.List;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The shop's JSON API. */
@RestController
@RequestMapping("/api")
@Validated
public class ShopApiController {

    private final StatementService statements;
    private final CatalogueService catalogue;

    public ShopApiController(StatementService statements, CatalogueService catalogue) {
        this.statements = statements;
        this.catalogue = catalogue;
    }

    @GetMapping("/customers/{customerId}/statement")
    public Statement statement(@PathVariable @Min(1) long customerId) {
        return statements.statement(customerId);
    }

    @GetMapping("/products/search")
    public List<ProductView> search(@RequestParam @Size(min = 2, max = 40) String q,
            @RequestParam(defaultValue = "STANDARD") Customer.Tier tier) {
        return catalogue.search(q, tier);
    }
}
