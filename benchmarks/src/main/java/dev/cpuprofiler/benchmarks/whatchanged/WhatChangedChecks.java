package dev.cpuprofiler.benchmarks.whatchanged;

import java.util.ArrayList;
import java.util.List;

/**
 * What the issue judges "What changed" by, on one {@link WhatChangedScenario.Outcome}; the test in {@code mvn verify}
 * and {@code benchmarks/compare.sh} both judge with these.
 * <ul>
 * <li>(a) {@code /orbit} at {@code trafficFactor} times the rate, same cost: its verdict {@code TRAFFIC}, its rate
 * ratio within {@link #WITHIN} of the factor and its cost ratio within {@link #WITHIN} of 1; {@code /ledger}
 * {@code UNCHANGED}.</li>
 * <li>(b) {@code /ledger} at {@code costFactor} times the cost, same rate: its verdict {@code COST}, its cost ratio
 * within {@link #WITHIN} of the factor and its rate ratio within {@link #WITHIN} of 1; {@code /orbit}
 * {@code UNCHANGED}; and {@link LedgerKernel#sum} the first of the methods that grew.</li>
 * <li>Both compared with the reference the status showed, and both fair tests: the load kept its rates.</li>
 * </ul>
 * The 20% is the issue's; {@code benchmarks/compare.sh} measures the spread the ratios really have (results in
 * {@code benchmarks/results/*-compare.md}).
 */
final class WhatChangedChecks {

    /** A ratio passes within this share of the value it should have. */
    static final double WITHIN = 0.20;
    /** How the ledger kernel's method ends in a profile's frames. */
    static final String LEDGER_KERNEL = "LedgerKernel.sum";

    private WhatChangedChecks() {
    }

    /** Every check that failed, in words; empty when all passed. */
    static List<String> failures(WhatChangedScenario.Outcome outcome, WhatChangedScenario.Settings settings) {
        List<String> failed = new ArrayList<>();
        Observation a = outcome.traffic();
        Observation b = outcome.cost();
        for (Observation o : List.of(a, b)) {
            failed.addAll(o.problems());
            if (!outcome.referenceId().equals(o.comparedWith())) {
                failed.add(o.label() + ": compared with " + o.comparedWith() + ", not with the reference "
                        + outcome.referenceId());
            }
        }
        expect(failed, a, Endpoint.ORBIT, "TRAFFIC", settings.trafficFactor(), 1);
        expect(failed, a, Endpoint.LEDGER, "UNCHANGED", null, null);
        expect(failed, b, Endpoint.LEDGER, "COST", 1, settings.costFactor());
        expect(failed, b, Endpoint.ORBIT, "UNCHANGED", null, null);
        if (b.firstMethod() == null || !b.firstMethod().endsWith(LEDGER_KERNEL)) {
            failed.add("cost: the first method that grew is " + b.firstMethod() + ", not " + LEDGER_KERNEL);
        }
        return failed;
    }

    /** One endpoint's verdict, and its ratios within {@link #WITHIN} of those given (null: not judged). */
    private static void expect(List<String> failed, Observation o, Endpoint e, String verdict, Integer rate,
            Integer cost) {
        Observation.Figures f = o.of(e);
        String where = o.label() + ": " + e.profileName + " ";
        if (!verdict.equals(f.verdict())) {
            failed.add(where + "verdict " + f.verdict() + ", expected " + verdict + " (" + f + ")");
        }
        ratio(failed, where + "requestsPerSecond.ratio", f.rateRatio(), rate);
        ratio(failed, where + "cpuPerRequestMillis.ratio", f.costRatio(), cost);
    }

    private static void ratio(List<String> failed, String what, Double actual, Integer expected) {
        if (expected == null) {
            return;
        }
        if (actual == null || Math.abs(actual / expected - 1) > WITHIN) {
            failed.add(what + " " + actual + ", expected " + expected + " ± " + Math.round(WITHIN * 100) + "%");
        }
    }
}
