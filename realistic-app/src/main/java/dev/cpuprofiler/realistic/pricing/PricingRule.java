package dev.cpuprofiler.realistic.pricing;

/**
 * One step of the pricing pipeline, a chain of responsibility like a servlet filter chain: a rule asks the rest of
 * the chain for the price so far ({@link PricingChain#proceed}) and adjusts it.
 */
public interface PricingRule {

    double apply(PricingContext context, PricingChain chain);
}
