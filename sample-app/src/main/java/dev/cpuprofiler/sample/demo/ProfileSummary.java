package dev.cpuprofiler.sample.demo;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.StackTreeSnapshot;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a newcomer wants to know about a profile at a glance: the frame where most samples end (self), and how
 * the time splits between the sample's own burning methods (total, as a share of all samples).
 */
public record ProfileSummary(String topSelfFrame, double topSelfPercent, Map<String, Double> workMethodPercents) {

    /** Frames of the sample's CPU-burning classes, e.g. {@code dev.cpuprofiler.sample.work.PrimeSieve.countPrimes}. */
    static final String WORK_PACKAGE = "dev.cpuprofiler.sample.work.";

    private static final List<String> WORK_METHODS = List.of("PrimeSieve.countPrimes", "PasswordHasher.stretch",
            "ReportSorter.sortLargeReport");

    public static ProfileSummary of(Profile profile) {
        StackTreeSnapshot tree = profile.tree();
        long all = Math.max(1, tree.totalSamples());
        Map<String, Long> self = new HashMap<>();
        Map<String, Long> work = new HashMap<>();
        for (int node = 1; node < tree.size(); node++) {
            String frame = tree.frame(node);
            if (tree.self(node) > 0) {
                self.merge(frame, tree.self(node), Long::sum);
            }
            if (frame.startsWith(WORK_PACKAGE) && isOutermost(tree, node, frame)) {
                String shortName = frame.substring(WORK_PACKAGE.length());
                if (WORK_METHODS.contains(shortName)) {
                    work.merge(shortName, tree.total(node), Long::sum);
                }
            }
        }
        Map.Entry<String, Long> top = self.entrySet().stream().max(Map.Entry.comparingByValue()).orElse(null);
        Map<String, Double> workPercents = work.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .collect(Collectors.toMap(Map.Entry::getKey, e -> 100.0 * e.getValue() / all, (a, b) -> a,
                        LinkedHashMap::new));
        return new ProfileSummary(top == null ? "(no samples)" : top.getKey(),
                top == null ? 0 : 100.0 * top.getValue() / all, workPercents);
    }

    /** Counts a recursive frame once, at its outermost call. */
    private static boolean isOutermost(StackTreeSnapshot tree, int node, String frame) {
        for (int p = tree.parent(node); p > 0; p = tree.parent(p)) {
            if (tree.frame(p).equals(frame)) {
                return false;
            }
        }
        return true;
    }

    /** {@code PrimeSieve.countPrimes 41%, PasswordHasher.stretch 30%, ...}, or a note when none was sampled. */
    public String workMethodsText() {
        if (workMethodPercents.isEmpty()) {
            return "none of the /work methods was sampled";
        }
        return workMethodPercents.entrySet().stream()
                .map(e -> e.getKey() + " " + String.format("%.0f%%", e.getValue()))
                .collect(Collectors.joining(", "));
    }
}
