package dev.cpuprofiler.realistic.catalogue;

import java.util.List;

/** A product as a page or a statement shows it: formatted, priced for one customer tier. */
public record ProductView(String sku, String name, String summary, String category, double price, String priceLabel,
        String stockLabel, String demandLabel, List<String> adjustments, double score) {
}
