package dev.cpuprofiler.realistic.catalogue;

import dev.cpuprofiler.realistic.domain.Category;
import dev.cpuprofiler.realistic.domain.CategoryRepository;
import dev.cpuprofiler.realistic.domain.Customer;
import dev.cpuprofiler.realistic.domain.Product;
import dev.cpuprofiler.realistic.domain.ProductRepository;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Slice;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
@Transactional(readOnly = true)
public class CatalogueService {

    public static final int PAGE_SIZE = 30;
    static final LocalDate TODAY = LocalDate.of(2026, 11, 20);

    private static final Comparator<ProductView> BEST_SELLERS_FIRST = Comparator
            .comparingDouble(ProductView::score).reversed()
            .thenComparing(ProductView::price)
            .thenComparing(ProductView::sku);

    private final CategoryRepository categories;
    private final ProductRepository products;
    private final ProductViewMapper mapper;

    public CatalogueService(CategoryRepository categories, ProductRepository products, ProductViewMapper mapper) {
        this.categories = categories;
        this.products = products;
        this.mapper = mapper;
    }

    /** One page of a category (and its sub-categories), priced for a tier, best sellers first. */
    public CataloguePage page(long categoryId, int page, Customer.Tier tier) {
        Category category = categories.findById(categoryId)
                .orElseThrow(() -> new NotFoundException("no category " + categoryId));
        Slice<Product> slice = products.findPageInCategory(categoryId, PageRequest.of(page, PAGE_SIZE));
        List<ProductView> views = slice.getContent().stream()
                .map(product -> mapper.toView(product, tier, 1, TODAY))
                .sorted(BEST_SELLERS_FIRST)
                .toList();
        DoubleSummaryStatistics prices = views.stream().mapToDouble(ProductView::price).summaryStatistics();
        String range = views.isEmpty() ? "" : ProductViewMapper.money(prices.getMin()) + " – "
                + ProductViewMapper.money(prices.getMax());
        return new CataloguePage(categoryId, category.getName(), page, slice.hasNext(), tier.name(), views, range);
    }

    public List<ProductView> search(String text, Customer.Tier tier) {
        return products.findTop40ByNameContainingIgnoreCaseOrderByNameAsc(text).stream()
                .map(product -> mapper.toView(product, tier, 1, TODAY))
                .sorted(BEST_SELLERS_FIRST)
                .toList();
    }
}
