package dev.cpuprofiler.format;

import dev.cpuprofiler.StackTreeSnapshot;

/**
 * How the drawn formats (JSON, text, collapsed, flame graph) name a node: a group in brackets, so that a grouped stack
 * begins with a frame naming its group ({@code [GET /owners/{id}]}, {@code [http-nio-8080-exec-*]}) that no method
 * name can be mistaken for; code as the tree names it. pprof and OTLP carry groups as labels instead.
 */
final class ShownFrame {

    private ShownFrame() {
    }

    static String of(StackTreeSnapshot tree, int node) {
        return tree.kind(node).isGroup() ? "[" + tree.frame(node) + "]" : tree.frame(node);
    }
}
