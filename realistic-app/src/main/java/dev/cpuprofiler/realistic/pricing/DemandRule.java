package dev.cpuprofiler.realistic.pricing;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/** Scarce stock against the forecast demand raises the price; a glut lowers it. */
@Component
@Order(60)
class DemandRule implements PricingRule {

    private final DemandForecaster forecaster;

    DemandRule(DemandForecaster forecaster) {
        this.forecaster = forecaster;
    }

    @Override
    public double apply(PricingContext context, PricingChain chain) {
        double price = chain.proceed(context);
        DemandForecast forecast = forecaster.forecast(context.product().getWeeklySales());
        context.forecast(forecast);
        double weeksOfStock = context.product().getStock() / Math.max(1, forecast.unitsIn(4));
        if (weeksOfStock < 1) {
            context.note("low stock");
            return price * 1.04;
        }
        if (weeksOfStock > 8) {
            context.note("clearance");
            return price * 0.93;
        }
        return price;
    }
}
