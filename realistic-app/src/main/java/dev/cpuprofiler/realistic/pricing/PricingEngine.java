package dev.cpuprofiler.realistic.pricing;

import java.util.List;
import org.springframework.stereotype.Component;

/** Runs every {@link PricingRule} bean, outermost first in their {@code @Order}. */
@Component
public class PricingEngine {

    private final List<PricingRule> rules;

    public PricingEngine(List<PricingRule> rules) {
        this.rules = List.copyOf(rules);
    }

    public double price(PricingContext context) {
        return new PricingChain(rules, 0).proceed(context);
    }
}
