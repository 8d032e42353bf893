package dev.cpuprofiler.realistic.pricing;

import java.util.List;

/** The rest of the pricing pipeline from one rule on; the end of the chain prices at zero. */
public final class PricingChain {

    private final List<PricingRule> rules;
    private final int position;

    PricingChain(List<PricingRule> rules, int position) {
        this.rules = rules;
        this.position = position;
    }

    public double proceed(PricingContext context) {
        if (position >= rules.size()) {
            return 0;
        }
        return rules.get(position).apply(context, new PricingChain(rules, position + 1));
    }
}
