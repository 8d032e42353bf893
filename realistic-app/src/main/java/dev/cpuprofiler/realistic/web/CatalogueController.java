package dev.cpuprofiler.realistic.web;

import dev.cpuprofiler.realistic.catalogue.CatalogueService;
import dev.cpuprofiler.realistic.domain.Customer;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/** The shop's HTML: a catalogue page rendered by Thymeleaf. */
@Controller
@Validated
public class CatalogueController {

    private final CatalogueService catalogue;

    public CatalogueController(CatalogueService catalogue) {
        this.catalogue = catalogue;
    }

    @GetMapping("/catalogue/{categoryId}")
    public String catalogue(@PathVariable @Min(1) long categoryId,
            @RequestParam(defaultValue = "0") @Min(0) @Max(1000) int page,
            @RequestParam(defaultValue = "STANDARD") Customer.Tier tier, Model model) {
        model.addAttribute("page", catalogue.page(categoryId, page, tier));
        return "catalogue";
    }
}
