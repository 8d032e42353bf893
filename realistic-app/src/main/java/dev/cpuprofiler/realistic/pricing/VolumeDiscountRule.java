package dev.cpuprofiler.realistic.pricing;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

@Component
@Order(30)
class VolumeDiscountRule implements PricingRule {

    @Override
    public double apply(PricingContext context, PricingChain chain) {
        double price = chain.proceed(context);
        int quantity = context.quantity();
        double discount = quantity >= 10 ? 0.08 : quantity >= 5 ? 0.05 : 0;
        if (discount > 0) {
            context.note("volume -" + Math.round(discount * 100) + "%");
        }
        return price * (1 - discount);
    }
}
