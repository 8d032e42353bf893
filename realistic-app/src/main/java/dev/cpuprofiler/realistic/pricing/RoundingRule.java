package dev.cpuprofiler.realistic.pricing;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/** Outermost: shelf prices end in .99 (or .49 under 10). */
@Component
@Order(10)
class RoundingRule implements PricingRule {

    @Override
    public double apply(PricingContext context, PricingChain chain) {
        double price = chain.proceed(context);
        double ending = price < 10 ? 0.49 : 0.99;
        return Math.max(ending, Math.floor(price) + ending);
    }
}
