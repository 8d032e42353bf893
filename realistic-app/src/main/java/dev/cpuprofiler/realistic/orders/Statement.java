package dev.cpuprofiler.realistic.orders;

import java.util.List;

/** A customer's account statement: every order re-priced line by line, totals, and where the money went. */
public record Statement(long customerId, String customer, String tier, int orderCount, String total,
        List<CategorySpend> topCategories, List<OrderSummary> orders) {

    public record OrderSummary(long id, String placedOn, String total, List<Line> lines) {
    }

    public record Line(String sku, String name, int quantity, String unitPrice, String lineTotal,
            List<String> adjustments, String demand) {
    }

    public record CategorySpend(String category, String amount, double share) {
    }
}
