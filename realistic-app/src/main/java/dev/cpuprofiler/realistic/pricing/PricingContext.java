package dev.cpuprofiler.realistic.pricing;

import dev.cpuprofiler.realistic.domain.Customer;
import dev.cpuprofiler.realistic.domain.Product;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/** What a price depends on, and the adjustments the rules made (shown to the customer). */
public final class PricingContext {

    private final Product product;
    private final Customer.Tier tier;
    private final int quantity;
    private final LocalDate date;
    private final List<String> adjustments = new ArrayList<>(6);
    private DemandForecast forecast;

    public PricingContext(Product product, Customer.Tier tier, int quantity, LocalDate date) {
        this.product = product;
        this.tier = tier;
        this.quantity = quantity;
        this.date = date;
    }

    public Product product() {
        return product;
    }

    public Customer.Tier tier() {
        return tier;
    }

    public int quantity() {
        return quantity;
    }

    public LocalDate date() {
        return date;
    }

    public void note(String adjustment) {
        adjustments.add(adjustment);
    }

    public List<String> adjustments() {
        return adjustments;
    }

    public DemandForecast forecast() {
        return forecast;
    }

    void forecast(DemandForecast forecast) {
        this.forecast = forecast;
    }
}
