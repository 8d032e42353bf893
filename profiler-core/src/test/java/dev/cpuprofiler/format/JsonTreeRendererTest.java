package dev.cpuprofiler.format;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackNode;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.stack.Stacks;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.CountingOutputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class JsonTreeRendererTest {

    private final JsonTreeRenderer renderer = new JsonTreeRenderer();

    @Test
    void writesTheContractShape() {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(Stacks.of("java.lang.Thread.run;app.Hot.compute"), null, 7);
        tree.accept(List.of(Frame.java("java.lang.Thread.run"), new Frame("read", FrameKind.NATIVE)), null, 3);

        JsonNode root = JsonMapper.shared().readTree(Rendered.json(renderer, tree.snapshot()));

        assertThat(root.propertyNames()).containsExactly("frame", "kind", "total", "self", "children");
        assertThat(root.get("frame").asString()).isEqualTo("all");
        assertThat(root.get("total").asLong()).isEqualTo(10);
        assertThat(root.get("self").asLong()).isZero();
        JsonNode run = root.get("children").get(0);
        assertThat(run.get("frame").asString()).isEqualTo("java.lang.Thread.run");
        assertThat(run.get("kind").asString()).isEqualTo("JAVA");
        assertThat(run.get("children")).hasSize(2);
        assertThat(run.get("children").get(0).get("frame").asString()).isEqualTo("app.Hot.compute");
        assertThat(run.get("children").get(0).get("total").asLong()).isEqualTo(7);
        assertThat(run.get("children").get(1).get("kind").asString()).isEqualTo("NATIVE");
        assertThat(run.get("children").get(1).get("children")).isEmpty();
    }

    @Test
    void theRecordTreeSerializesToTheSameJson() {
        StackTree tree = new StackTree(64, 1000, true);
        tree.accept(Stacks.of("java.lang.Thread.run;app.Hot.compute"), "exec-1", 7);
        tree.accept(Stacks.of("java.lang.Thread.run;app.Cold.read"), "exec-2", 2);
        StackTreeSnapshot snapshot = tree.snapshot();

        String fromRecords = JsonMapper.shared().writeValueAsString(StackNode.of(snapshot));

        assertThat(fromRecords).isEqualTo(Rendered.json(renderer, snapshot));
    }

    @Test
    void anEmptyTreeIsARootWithoutChildren() {
        assertThat(Rendered.json(renderer, StackTreeSnapshot.empty()))
                .isEqualTo("{\"frame\":\"all\",\"kind\":\"UNKNOWN\",\"total\":0,\"self\":0,\"children\":[]}");
    }

    @Test
    void rendersAHundredThousandNodesWhole() throws Exception {
        // What the rendering costs (time, and allocation per node: it streams, no node objects) is measured by the
        // benchmarks (RenderBenchmark, format=json, with JMH's gc profiler), not here.
        StackTree tree = new StackTree(64, 200_000, false);
        for (int i = 0; i < 50_000; i++) {
            tree.accept(Stacks.of("app.Main.main;app.Router.route" + i % 500 + ";app.Handler.handle" + i), null, 1);
        }
        StackTreeSnapshot snapshot = tree.snapshot();
        assertThat(snapshot.size()).isEqualTo(1 + 1 + 500 + 50_000);

        CountingOutputStream out = new CountingOutputStream();
        renderer.render(snapshot, out);
        String text = Rendered.json(renderer, snapshot);

        assertThat(out.count()).isEqualTo(text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                .isGreaterThan(snapshot.size() * 60L);
        assertThat(text).startsWith("{\"frame\":\"all\",\"kind\":\"UNKNOWN\",\"total\":50000,\"self\":0,"
                + "\"children\":[{\"frame\":\"app.Main.main\",\"kind\":\"JAVA\",\"total\":50000,\"self\":0,")
                .endsWith("]}]}]}").contains("{\"frame\":\"app.Handler.handle49999\",\"kind\":\"JAVA\",\"total\":1,"
                        + "\"self\":1,\"children\":[]}");
    }

    @Test
    void deepStacksDoNotOverflowTheJavaStack() {
        List<Frame> deep = new ArrayList<>();
        for (int i = 0; i < 8000; i++) {
            deep.add(Frame.java("app.Recursive.step" + i % 3));
        }
        StackTree tree = new StackTree(8192, 100_000, false);
        tree.accept(deep, null, 1);

        JsonMapper reader = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(
                StreamReadConstraints.builder().maxNestingDepth(JsonTreeRenderer.MAX_NESTING).build()).build()).build();

        JsonNode root = reader.readTree(Rendered.json(renderer, tree.snapshot()));

        assertThat(root.get("total").asLong()).isEqualTo(1);
        JsonNode node = root;
        int depth = 0;
        while (!node.get("children").isEmpty()) {
            node = node.get("children").get(0);
            depth++;
        }
        assertThat(depth).isEqualTo(8000);
        assertThat(node.get("self").asLong()).isEqualTo(1);
    }

    @Test
    void doesNotCloseTheStream() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream() {
            @Override
            public void close() {
                throw new AssertionError("closed");
            }
        };
        renderer.render(StackTreeSnapshot.empty(), out);
        out.write('\n');
        assertThat(out.toString()).endsWith("}\n");
    }
}
