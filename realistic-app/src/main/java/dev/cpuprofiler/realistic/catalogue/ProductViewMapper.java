package dev.cpuprofiler.realistic.catalogue;

import dev.cpuprofiler.realistic.domain.Customer;
import dev.cpuprofiler.realistic.domain.Product;
import dev.cpuprofiler.realistic.pricing.DemandForecast;
import dev.cpuprofiler.realistic.pricing.PricingContext;
import dev.cpuprofiler.realistic.pricing.PricingEngine;
import java.text.NumberFormat;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import org.springframework.stereotype.Component;

/** Entity to view: prices the product for the customer's tier, formats what the page shows. */
@Component
public class ProductViewMapper {

    private static final int SUMMARY_LENGTH = 80;

    private final PricingEngine pricing;

    public ProductViewMapper(PricingEngine pricing) {
        this.pricing = pricing;
    }

    public ProductView toView(Product product, Customer.Tier tier, int quantity, LocalDate date) {
        PricingContext context = new PricingContext(product, tier, quantity, date);
        double price = pricing.price(context);
        DemandForecast forecast = context.forecast();
        double weekly = forecast.unitsIn(1);
        String stockLabel = product.getStock() == 0 ? "out of stock"
                : product.getStock() < weekly ? "only " + product.getStock() + " left" : "in stock";
        String demandLabel = String.format(Locale.UK, "%.0f/week %s (fit ±%.1f)", weekly,
                forecast.trend() > 0.05 ? "rising" : forecast.trend() < -0.05 ? "falling" : "steady", forecast.rmse());
        double score = weekly * price / (1 + Math.abs(forecast.rmse()));
        return new ProductView(product.getSku(), product.getName(), summary(product.getDescription()),
                product.getCategory().getName(), price, money(price), stockLabel, demandLabel,
                List.copyOf(context.adjustments()), score);
    }

    public static String money(double amount) {
        NumberFormat format = NumberFormat.getCurrencyInstance(Locale.UK);
        return format.format(amount);
    }

    private static String summary(String description) {
        if (description == null || description.length() <= SUMMARY_LENGTH) {
            return description;
        }
        int cut = description.lastIndexOf(' ', SUMMARY_LENGTH);
        return description.substring(0, cut > 0 ? cut : SUMMARY_LENGTH) + "…";
    }
}
