package dev.cpuprofiler.realistic.pricing;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/** VAT on the net price; books and food would be reduced, everything here is standard rate. */
@Component
@Order(20)
class TaxRule implements PricingRule {

    static final double STANDARD_RATE = 0.20;

    @Override
    public double apply(PricingContext context, PricingChain chain) {
        double net = chain.proceed(context);
        return net * (1 + STANDARD_RATE);
    }
}
