package dev.cpuprofiler.realistic.orders;

import dev.cpuprofiler.realistic.catalogue.NotFoundException;
import dev.cpuprofiler.realistic.catalogue.ProductView;
import dev.cpuprofiler.realistic.catalogue.ProductViewMapper;
import dev.cpuprofiler.realistic.domain.Customer;
import dev.cpuprofiler.realistic.domain.CustomerRepository;
import dev.cpuprofiler.realistic.domain.OrderLine;
import dev.cpuprofiler.realistic.domain.PurchaseOrder;
import dev.cpuprofiler.realistic.domain.PurchaseOrderRepository;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class StatementService {

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("d MMMM uuuu", Locale.UK);

    private final CustomerRepository customers;
    private final PurchaseOrderRepository orders;
    private final ProductViewMapper mapper;

    public StatementService(CustomerRepository customers, PurchaseOrderRepository orders, ProductViewMapper mapper) {
        this.customers = customers;
        this.orders = orders;
        this.mapper = mapper;
    }

    @Transactional(readOnly = true)
    public Statement statement(long customerId) {
        Customer customer = customers.findById(customerId)
                .orElseThrow(() -> new NotFoundException("no customer " + customerId));
        List<PurchaseOrder> history = orders.findWithLinesByCustomer(customerId);
        List<Statement.OrderSummary> summaries = new ArrayList<>(history.size());
        Map<String, Double> byCategory = new HashMap<>();
        double grandTotal = 0;
        for (PurchaseOrder order : history) {
            List<Statement.Line> lines = new ArrayList<>(order.getLines().size());
            double orderTotal = 0;
            for (OrderLine line : order.getLines()) {
                ProductView view = mapper.toView(line.getProduct(), customer.getTier(), line.getQuantity(),
                        order.getPlacedOn());
                double lineTotal = view.price() * line.getQuantity();
                orderTotal += lineTotal;
                byCategory.merge(view.category(), lineTotal, Double::sum);
                lines.add(new Statement.Line(view.sku(), view.name(), line.getQuantity(), view.priceLabel(),
                        ProductViewMapper.money(lineTotal), view.adjustments(), view.demandLabel()));
            }
            grandTotal += orderTotal;
            summaries.add(new Statement.OrderSummary(order.getId(), DATE.format(order.getPlacedOn()),
                    ProductViewMapper.money(orderTotal), lines));
        }
        double total = grandTotal;
        List<Statement.CategorySpend> top = byCategory.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .limit(5)
                .map(e -> new Statement.CategorySpend(e.getKey(), ProductViewMapper.money(e.getValue()),
                        total == 0 ? 0 : Math.round(1000 * e.getValue() / total) / 10.0))
                .toList();
        return new Statement(customer.getId(), customer.getName(), customer.getTier().name(), history.size(),
                ProductViewMapper.money(grandTotal), top, summaries);
    }
}
