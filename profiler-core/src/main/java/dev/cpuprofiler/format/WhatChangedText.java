package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile.Comparison;
import dev.cpuprofiler.Profile.Comparison.Change;
import dev.cpuprofiler.Profile.Comparison.EndpointChange;
import dev.cpuprofiler.Profile.Comparison.MethodChange;
import dev.cpuprofiler.internal.compare.ProfileComparator;
import java.util.Locale;

/**
 * The paragraph the text format opens with when the profile is compared: one sentence per endpoint in words ("GET
 * /ledger: each request costs 10.2x more (3.1 → 31.6 ms CPU) at the same rate"), then the methods whose share of the
 * samples grew the most. The verdicts are the comparison's; the words only say which way each figure went: a figure
 * that did not grow is "the same" unless it fell below the reciprocal of the comparator's growth floor, then its ratio
 * is given.
 */
final class WhatChangedText {

    private WhatChangedText() {
    }

    /** The paragraph, ending in a blank line; empty without a comparison. */
    static String of(Comparison c) {
        if (c == null) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        b.append("What changed, compared with profile ").append(c.reference())
                .append(" (requests per second of each, CPU per request):\n");
        if (c.endpoints().isEmpty()) {
            b.append("  No endpoint served requests in this profile.\n");
        }
        for (EndpointChange e : c.endpoints()) {
            b.append("  ").append(sentence(e)).append('\n');
        }
        if (c.methods().isEmpty()) {
            b.append("No method's share of the samples grew.\n");
        } else {
            b.append("Methods that grew most (self time, % of each profile's samples):\n");
            for (MethodChange m : c.methods()) {
                b.append(String.format(Locale.ROOT, "  %+6.1f points  %5.1f%% → %5.1f%%  %s%n", m.delta(),
                        m.referencePercent(), m.percent(), m.method()));
            }
        }
        return b.append('\n').toString();
    }

    /** One endpoint's change, in words. */
    static String sentence(EndpointChange e) {
        Change rate = e.requestsPerSecond();
        Change cost = e.cpuPerRequestMillis();
        String name = e.endpoint() + ": ";
        return name + switch (e.verdict()) {
            case NEW -> "new, not in the reference: " + rate(rate.profile()) + " requests a second at "
                    + millis(cost.profile()) + " ms CPU each";
            case TRAFFIC -> requests(rate) + (fell(cost) ? ", and each costs " + less(cost) : " at the same cost each");
            case COST -> "each request costs " + costlier(cost) + (fell(rate) ? ", at " + requests(rate)
                    : " at the same rate");
            case BOTH -> requests(rate) + ", and each costs " + costlier(cost);
            case UNCHANGED -> unchanged(rate, cost);
        };
    }

    private static String unchanged(Change rate, Change cost) {
        if (!fell(rate) && !fell(cost)) {
            return "unchanged (" + rate(rate.reference()) + " → " + rate(rate.profile()) + " requests a second, "
                    + millis(cost.reference()) + " → " + millis(cost.profile()) + " ms CPU each)";
        }
        return "no growth: " + (fell(rate) ? requests(rate) : "the same rate") + ", "
                + (fell(cost) ? "each costing " + less(cost) : "the same cost each");
    }

    /** {@code 8.0x the requests (15 → 120 a second)}, or {@code 0.3x the requests (15 → 5 a second)}. */
    private static String requests(Change rate) {
        return ratio(rate) + " the requests (" + rate(rate.reference()) + " → " + rate(rate.profile()) + " a second)";
    }

    /** {@code 10.2x more (3.1 → 31.6 ms CPU)}. */
    private static String costlier(Change cost) {
        return ratio(cost) + " more (" + millis(cost.reference()) + " → " + millis(cost.profile()) + " ms CPU)";
    }

    /** {@code 0.5x as much (3.1 → 1.6 ms CPU)}. */
    private static String less(Change cost) {
        return ratio(cost) + " as much (" + millis(cost.reference()) + " → " + millis(cost.profile()) + " ms CPU)";
    }

    /** A fall worth a word: below the reciprocal of the growth floor (no noise test: the figures are given). */
    private static boolean fell(Change c) {
        return c.ratio() != null && c.ratio() <= 1 / ProfileComparator.GROWTH_FLOOR;
    }

    private static String ratio(Change c) {
        return c.ratio() == null ? "?" : String.format(Locale.ROOT, "%.1fx", c.ratio());
    }

    /** Requests a second: whole from 10 on, else to 0.1 (0.01 below 0.1). */
    static String rate(Double perSecond) {
        if (perSecond == null) {
            return "?";
        }
        double r = perSecond;
        return String.format(Locale.ROOT, r >= 10 ? "%.0f" : r >= 0.1 || r == 0 ? "%.1f" : "%.2f", r);
    }

    /** Milliseconds: to 0.1 (whole from 100 on, 0.01 below 0.1). */
    static String millis(Double millis) {
        if (millis == null) {
            return "?";
        }
        double m = millis;
        return String.format(Locale.ROOT, m >= 100 ? "%.0f" : m >= 0.1 || m == 0 ? "%.1f" : "%.2f", m);
    }
}
