package dev.cpuprofiler.format;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.StackTreeSnapshot;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamWriteConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes the tree as nested JSON objects, {@code {"frame": "all", "kind": "UNKNOWN", "total": 2890, "self": 0,
 * "children": [...]}}, children largest first. Streams node by node through a Jackson generator, so a tree of
 * 100 000 nodes never exists as an intermediate object graph; iterative, so deep stacks cannot overflow the Java stack.
 *
 * <p>Each tree level is two JSON nesting levels (an object and its {@code children} array), and Jackson refuses by
 * default to write or read more than 500: a stack deeper than about 250 frames would fail. The default renderer
 * therefore allows {@value #MAX_NESTING} levels (the deepest {@code max-stack-depth} plus the thread and marker
 * levels); a reader of such deep JSON with Jackson must raise {@code StreamReadConstraints.maxNestingDepth} too.
 */
final class JsonTreeRenderer {

    /** Nesting levels the default renderer allows: two per tree level, for the deepest stack plus groups and marker. */
    static final int MAX_NESTING = 2 * (CpuProfilerOptions.LARGEST_STACK_DEPTH + 3);

    private final ObjectMapper mapper;

    JsonTreeRenderer() {
        this(JsonMapper.builder(JsonFactory.builder()
                .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(MAX_NESTING).build())
                .build()).build());
    }

    /**
     * Uses the given mapper's generator settings (pretty printing, for instance) and its constraints: its
     * maximum nesting depth must be at least twice the tree's depth plus two.
     */
    JsonTreeRenderer(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    void render(StackTreeSnapshot tree, OutputStream out) throws IOException {
        OutputStream notClosing = new FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                out.flush();
            }
        };
        try (JsonGenerator generator = mapper.createGenerator(notClosing)) {
            write(tree, generator);
        }
    }

    /** Writes the tree as one JSON value into an open generator, e.g. as a property of a larger document. */
    static void write(StackTreeSnapshot tree, JsonGenerator generator) {
        int[] openDepths = new int[tree.maxDepth() + 1];
        int open = 0;
        for (int node = 0; node < tree.size(); node++) {
            int depth = tree.depth(node);
            while (open > 0 && openDepths[open - 1] >= depth) {
                generator.writeEndArray();
                generator.writeEndObject();
                open--;
            }
            generator.writeStartObject();
            generator.writeStringProperty("frame", ShownFrame.of(tree, node));
            generator.writeStringProperty("kind", tree.kind(node).name());
            generator.writeNumberProperty("total", tree.total(node));
            generator.writeNumberProperty("self", tree.self(node));
            generator.writeArrayPropertyStart("children");
            openDepths[open++] = depth;
        }
        while (open > 0) {
            generator.writeEndArray();
            generator.writeEndObject();
            open--;
        }
    }
}
