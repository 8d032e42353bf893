package dev.cpuprofiler.realistic.catalogue;

import java.util.List;

public record CataloguePage(long categoryId, String categoryName, int page, boolean hasNext, String tier,
        List<ProductView> products, String priceRange) {
}
