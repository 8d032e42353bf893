package dev.cpuprofiler.benchmarks.harness;

import static dev.cpuprofiler.benchmarks.harness.Report.num;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What an app's {@code GET /actuator/cpuprofiler} says about its look-back ({@code "lookback"}: state, samples held,
 * ring footprint, ...). A build without look-back has no such field: the harness passes
 * {@code profiler.cpu.lookback} anyway (Spring Boot ignores unknown keys), measures, and says so instead of failing.
 *
 * @param present whether the status has a {@code lookback} field at all
 * @param state its {@code state} ({@code ARMED}, {@code IDLE}, {@code WAITING}, ...), empty when absent
 * @param text a short description for the report
 */
record LookbackProbe(boolean present, String state, String text) {

    static final String NOT_PRESENT = "look-back not present in this build";

    static LookbackProbe of(App app) {
        try {
            Http.Response r = Http.get(app.base + "/actuator/cpuprofiler", 10);
            if (r.status() != 200) {
                return new LookbackProbe(false, "", "status not readable (HTTP " + r.status() + ")");
            }
            return of(r.json());
        } catch (Exception e) {
            return new LookbackProbe(false, "", "status not readable: " + e.getMessage());
        }
    }

    /** From the status JSON of {@code GET /actuator/cpuprofiler}. */
    static LookbackProbe of(JsonNode status) {
        try {
            JsonNode lb = status.path("lookback");
            if (lb.isMissingNode() || lb.isNull()) {
                return new LookbackProbe(false, "", NOT_PRESENT);
            }
            if (!lb.isObject()) {
                String v = lb.isValueNode() ? lb.asString("") : lb.toString();
                return new LookbackProbe(true, v, "look-back: " + v);
            }
            String state = lb.path("state").asString("?");
            List<String> parts = new ArrayList<>();
            parts.add("state " + state);
            field(lb, "window").ifPresent(w -> parts.add("window " + w));
            field(lb, "samplingPeriod").ifPresent(p -> parts.add("period " + p));
            if (lb.path("samples").isNumber()) {
                parts.add(lb.path("samples").asLong() + " samples held");
            }
            if (lb.path("footprintBytes").isNumber()) {
                parts.add("ring ~" + num(lb.path("footprintBytes").asLong() / 1024.0, 0) + " KB");
            }
            field(lb, "reason").ifPresent(why -> parts.add("reason: " + why));
            return new LookbackProbe(true, state, String.join(", ", parts).replace("|", "\\|"));
        } catch (Exception e) {
            return new LookbackProbe(false, "", "status not readable: " + e.getMessage());
        }
    }

    private static Optional<String> field(JsonNode node, String name) {
        JsonNode v = node.path(name);
        if (v.isMissingNode() || v.isNull()) {
            return Optional.empty();
        }
        return Optional.of(v.isValueNode() ? v.asString("") : v.toString());
    }

    /** Whether the look-back was sampling when asked. */
    boolean recording() {
        return "ARMED".equals(state);
    }
}
