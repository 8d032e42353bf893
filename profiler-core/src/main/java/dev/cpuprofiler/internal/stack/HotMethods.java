package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.StackTreeSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The methods that burn the most CPU themselves: self time summed over every place a method appears in the tree,
 * which a flame graph spreads over many towers. A method's total counts a sample once even when the method recurses,
 * so it never exceeds 100%.
 */
public final class HotMethods {

    /** How many a profile lists. */
    public static final int DEFAULT_LIMIT = 20;

    private HotMethods() {
    }

    /**
     * @param limit the most methods returned
     * @return methods with self samples, the most self first (ties by total, then name)
     */
    public static List<Method> of(StackTreeSnapshot tree, int limit) {
        long all = tree.totalSamples();
        if (all <= 0 || limit <= 0) {
            return List.of();
        }
        Map<String, long[]> byMethod = new HashMap<>(); // name -> {self, total}
        Map<String, Integer> onPath = new HashMap<>();
        String[] path = new String[tree.maxDepth() + 1];
        int top = 0;
        for (int node = 1; node < tree.size(); node++) {
            int depth = tree.depth(node);
            // Preorder: the path holds this node's ancestors once the deeper nodes before it are popped.
            for (; top >= depth; top--) {
                if (path[top] != null) {
                    onPath.merge(path[top], -1, (a, b) -> a + b == 0 ? null : a + b);
                    path[top] = null;
                }
            }
            top = depth;
            String name = tree.frame(node);
            if (isMarker(tree, node, name)) {
                continue;
            }
            long[] counts = byMethod.computeIfAbsent(name, k -> new long[2]);
            counts[0] += tree.self(node);
            if (!onPath.containsKey(name)) {
                counts[1] += tree.total(node);
            }
            onPath.merge(name, 1, Integer::sum);
            path[depth] = name;
        }
        List<Method> hot = new ArrayList<>();
        for (Map.Entry<String, long[]> e : byMethod.entrySet()) {
            long self = e.getValue()[0];
            if (self > 0) {
                hot.add(new Method(e.getKey(), percent(self, all), percent(e.getValue()[1], all), self));
            }
        }
        hot.sort(Comparator.comparingLong(Method::samples).reversed()
                .thenComparing(Comparator.comparingDouble(Method::totalPercent).reversed())
                .thenComparing(Method::method));
        return List.copyOf(hot.subList(0, Math.min(limit, hot.size())));
    }

    /** Structure rather than code: the cut-stack markers and the groups (a thread's, an endpoint's). */
    private static boolean isMarker(StackTreeSnapshot tree, int node, String name) {
        return tree.kind(node).isGroup() || StackTree.TRUNCATED.equals(name) || StackTree.NO_STACK.equals(name);
    }

    private static double percent(long part, long all) {
        return Math.round(part * 10000.0 / all) / 100.0;
    }

    /**
     * One method's share of a profile.
     *
     * @param method the frame name as the tree shows it (fully qualified for Java frames)
     * @param selfPercent share of all samples that end in this method (0..100)
     * @param totalPercent share of all samples that pass through it, counted once per sample however often it recurses
     * @param samples weight of the samples that end in it
     */
    public record Method(String method, double selfPercent, double totalPercent, long samples) {

        public Method {
            Objects.requireNonNull(method, "method");
        }
    }
}
