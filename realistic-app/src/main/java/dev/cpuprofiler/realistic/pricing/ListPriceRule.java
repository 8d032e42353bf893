package dev.cpuprofiler.realistic.pricing;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/** Innermost: the catalogue's list price (net). */
@Component
@Order(70)
class ListPriceRule implements PricingRule {

    @Override
    public double apply(PricingContext context, PricingChain chain) {
        return context.product().getListPrice().doubleValue() + chain.proceed(context);
    }
}
