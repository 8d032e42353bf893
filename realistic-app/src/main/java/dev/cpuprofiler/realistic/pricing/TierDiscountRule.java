package dev.cpuprofiler.realistic.pricing;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

@Component
@Order(40)
class TierDiscountRule implements PricingRule {

    @Override
    public double apply(PricingContext context, PricingChain chain) {
        double price = chain.proceed(context);
        double discount = switch (context.tier()) {
            case STANDARD -> 0;
            case SILVER -> 0.02;
            case GOLD -> 0.05;
            case PLATINUM -> 0.09;
        };
        if (discount > 0) {
            context.note(context.tier().name().toLowerCase() + " -" + Math.round(discount * 100) + "%");
        }
        return price * (1 - discount);
    }
}
