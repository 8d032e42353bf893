package dev.cpuprofiler.realistic.pricing;

import java.time.temporal.IsoFields;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/** Seasonal categories cost a little more in their peak weeks and are marked down out of season. */
@Component
@Order(50)
class SeasonalRule implements PricingRule {

    @Override
    public double apply(PricingContext context, PricingChain chain) {
        double price = chain.proceed(context);
        double seasonality = context.product().getCategory().getSeasonality();
        int week = context.date().get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
        double factor = 1 + 0.1 * seasonality * Math.sin(2 * Math.PI * week / 52.0);
        if (Math.abs(factor - 1) > 0.03) {
            context.note(factor > 1 ? "peak season" : "off season");
        }
        return price * factor;
    }
}
