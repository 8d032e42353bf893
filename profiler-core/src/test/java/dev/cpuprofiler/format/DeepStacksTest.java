package dev.cpuprofiler.format;

import dev.cpuprofiler.internal.stack.CollapsedStacks;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.HotMethods;
import dev.cpuprofiler.internal.stack.LookbackTrees;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.stack.StackTreePruner;
import dev.cpuprofiler.internal.stack.Stacks;
import dev.cpuprofiler.StackTreeSnapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stacks as deep as {@code max-stack-depth} allows (up to 8192 frames) stay whole through the tree and every view of
 * it: merging, snapshot, pruning, the look-back merge, hot methods, root cut and each rendering. Everything runs on a
 * thread with a 256 KB stack, so a walk that recursed once per frame would overflow and fail the test.
 */
class DeepStacksTest {

    private static final int SMALL_STACK = 256 * 1024;
    private static final int MAX_STACK_DEPTH = 8192;

    /** Stacks of one test: A recurses, A' ends in the middle of A's recursion, B forks off A, C shares only run. */
    private record Deep(int depth, List<Frame> a, List<Frame> aMid, List<Frame> b, List<Frame> c) {

        static Deep of(int depth) {
            List<Frame> a = new ArrayList<>();
            a.add(Frame.java("java.lang.Thread.run"));
            a.add(Frame.java("app.Deep.main"));
            while (a.size() < depth - 1) {
                a.add(Frame.java("app.Deep.recurse"));
            }
            a.add(Frame.java("app.Deep.burnA"));
            List<Frame> aMid = new ArrayList<>(a.subList(0, depth * 3 / 4 - 1));
            aMid.add(Frame.java("app.Deep.burnMid"));
            List<Frame> b = new ArrayList<>(a.subList(0, depth / 2));
            while (b.size() < depth - 1) {
                b.add(Frame.java("app.Deep.b" + b.size()));
            }
            b.add(Frame.java("app.Deep.burnB"));
            List<Frame> c = new ArrayList<>();
            c.add(Frame.java("java.lang.Thread.run"));
            while (c.size() < depth - 1) {
                c.add(Frame.java("app.Deep.c" + c.size()));
            }
            c.add(Frame.java("app.Deep.burnC"));
            return new Deep(depth, a, aMid, b, c);
        }

        /** 40 A, 10 A', 30 B, 20 C. */
        StackTreeSnapshot tree() {
            StackTree tree = new StackTree(MAX_STACK_DEPTH, 200_000, false);
            tree.accept(a, "worker-1", 40);
            tree.accept(aMid, "worker-1", 10);
            tree.accept(b, "worker-2", 30);
            tree.accept(c, "worker-3", 20);
            return tree.snapshot();
        }
    }

    @ParameterizedTest(name = "{0} frames")
    @ValueSource(ints = {4000, MAX_STACK_DEPTH})
    void theTreeKeepsEveryFrameOfEveryStack(int depth) throws Throwable {
        onSmallStack(() -> {
            Deep deep = Deep.of(depth);
            StackTreeSnapshot tree = deep.tree();

            assertThat(tree.maxDepth()).isEqualTo(depth);
            assertThat(tree.totalSamples()).isEqualTo(100);
            assertThat(tree.truncatedSamples()).isZero();
            assertThat(tree.truncatedFrames()).isZero();
            assertWholePath(tree, deep.a(), 40);
            assertWholePath(tree, deep.aMid(), 10);
            assertWholePath(tree, deep.b(), 30);
            assertWholePath(tree, deep.c(), 20);
            assertThat(StackTree.RootCut.of(tree).samples()).isZero();

            // Merging a deep tree into another (look-back buckets, StackTree.merge) keeps it whole too.
            StackTree twice = new StackTree(MAX_STACK_DEPTH, 200_000, false);
            twice.merge(tree);
            twice.merge(tree);
            StackTreeSnapshot merged = twice.snapshot();
            assertThat(merged.maxDepth()).isEqualTo(depth);
            assertThat(merged.size()).isEqualTo(tree.size());
            assertWholePath(merged, deep.a(), 80);
            assertWholePath(merged, deep.c(), 40);
            assertThat(merged.truncatedSamples()).isZero();
        });
    }

    @ParameterizedTest(name = "{0} frames")
    @ValueSource(ints = {4000, MAX_STACK_DEPTH})
    void jsonHoldsTheWholeDepth(int depth) throws Throwable {
        onSmallStack(() -> {
            Deep deep = Deep.of(depth);
            String json = Rendered.json(deep.tree());

            // Streamed back token by token (a reader's own nesting limit must allow two levels per frame).
            JsonMapper reader = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(
                    StreamReadConstraints.builder().maxNestingDepth(JsonTreeRenderer.MAX_NESTING).build()).build())
                    .build();
            String[] frameAt = new String[depth + 2];
            List<String> leafPaths = new ArrayList<>();
            int objects = 0;
            int deepest = 0;
            try (JsonParser parser = reader.createParser(json)) {
                for (JsonToken t; (t = parser.nextToken()) != null; ) {
                    if (t == JsonToken.START_OBJECT) {
                        deepest = Math.max(deepest, ++objects);
                    } else if (t == JsonToken.END_OBJECT) {
                        objects--;
                    } else if (t == JsonToken.PROPERTY_NAME && parser.currentName().equals("frame")) {
                        String frame = parser.nextStringValue();
                        frameAt[objects] = frame;
                        if (frame.startsWith("app.Deep.burn")) {
                            leafPaths.add(String.join(";", Arrays.asList(frameAt).subList(2, objects + 1)));
                        }
                    }
                }
            }
            assertThat(objects).isZero();
            assertThat(deepest).as("the root object plus one per frame").isEqualTo(depth + 1);
            assertThat(leafPaths).containsExactlyInAnyOrder(names(deep.a()), names(deep.aMid()), names(deep.b()),
                    names(deep.c()));
        });
    }

    @ParameterizedTest(name = "{0} frames")
    @ValueSource(ints = {4000, MAX_STACK_DEPTH})
    void textAndCollapsedHoldTheWholeDepth(int depth) throws Throwable {
        onSmallStack(() -> {
            Deep deep = Deep.of(depth);
            StackTreeSnapshot tree = deep.tree();

            String text = Rendered.text(tree);
            assertThat(text.lines().skip(1)).as("one line per node, one per closed branch")
                    .filteredOn(l -> !l.endsWith("~~~~")).hasSize(tree.size());
            assertThat(text.lines().filter(l -> l.matches(" *\\d+ +[\\d.]+%  app\\.Deep\\.c\\d+")))
                    .hasSize(depth - 2);
            assertThat(text).contains("app.Deep.burnA", "app.Deep.burnMid", "app.Deep.burnB", "app.Deep.burnC");

            String collapsed = Rendered.collapsed(tree);
            assertThat(collapsed.lines()).containsExactlyInAnyOrder(names(deep.a()) + " 40",
                    names(deep.aMid()) + " 10", names(deep.b()) + " 30", names(deep.c()) + " 20");
            // And back: parsing the deep lines rebuilds the same tree.
            StackTreeSnapshot parsed = CollapsedStacks.parse(collapsed).snapshot();
            assertThat(parsed.maxDepth()).isEqualTo(depth);
            assertThat(Rendered.collapsed(parsed)).isEqualTo(collapsed);
        });
    }

    @ParameterizedTest(name = "{0} frames")
    @ValueSource(ints = {4000, MAX_STACK_DEPTH})
    void theFlameGraphPageHoldsEveryFrame(int depth) throws Throwable {
        onSmallStack(() -> {
            Deep deep = Deep.of(depth);
            StackTreeSnapshot tree = deep.tree();

            String html = Rendered.flameGraph(tree);

            // The data: the frame names (sorted, each stored as the length of the prefix it shares with the one
            // before, as a character, then the rest), then one f/u/n call per frame: f(key,level,dx,...) sets the
            // level, u goes one deeper, n stays; key >>> 3 indexes the names.
            Matcher levels = Pattern.compile("const levels = Array\\((\\d+)\\);").matcher(html);
            assertThat(levels.find()).isTrue();
            assertThat(Integer.parseInt(levels.group(1))).isEqualTo(depth + 1);
            List<String> cpool = FlameGraphPage.names(html);
            int level = 0;
            int frames = 0;
            String[] at = new String[depth + 2];
            List<String> deepestPaths = new ArrayList<>();
            Pattern call = Pattern.compile("([fnu])\\((\\d+)(?:,(\\d+))?.*\\)");
            for (String line : html.lines().toList()) {
                Matcher m = call.matcher(line);
                if (!m.matches()) {
                    continue;
                }
                frames++;
                switch (m.group(1)) {
                    case "f" -> level = Integer.parseInt(m.group(3));
                    case "u" -> level++;
                    default -> { }
                }
                at[level] = cpool.get(Integer.parseInt(m.group(2)) >>> 3);
                if (at[level].startsWith("app.Deep.burn")) {
                    deepestPaths.add(String.join(";", Arrays.asList(at).subList(1, level + 1)));
                }
            }
            assertThat(frames).as("every node drawn").isEqualTo(tree.size());
            assertThat(deepestPaths).containsExactlyInAnyOrder(names(deep.a()), names(deep.aMid()),
                    names(deep.b()), names(deep.c()));
        });
    }

    @ParameterizedTest(name = "{0} frames")
    @ValueSource(ints = {4000, MAX_STACK_DEPTH})
    void prunedLookbackAndHotMethodViewsKeepTheWholeDepth(int depth) throws Throwable {
        onSmallStack(() -> {
            Deep deep = Deep.of(depth);
            StackTreeSnapshot tree = deep.tree();

            StackTreeSnapshot pruned = StackTreePruner.prune(tree, 0.5);
            assertThat(pruned.maxDepth()).isEqualTo(depth);
            assertThat(pruned.size()).isEqualTo(tree.size());
            assertWholePath(pruned, deep.a(), 40);
            assertWholePath(pruned, deep.c(), 20);
            // Folding the small ones still keeps the big deep paths whole.
            StackTreeSnapshot folded = StackTreePruner.prune(tree, 25);
            assertWholePath(folded, deep.a(), 40);
            assertWholePath(folded, deep.b(), 30);
            assertThat(folded.totalSamples()).isEqualTo(100);

            StackTree before = new StackTree(MAX_STACK_DEPTH, 200_000, false);
            List<Frame> d = new ArrayList<>(deep.c().subList(0, depth - 1));
            d.add(Frame.java("app.Deep.burnBeforeTheSession"));
            before.accept(d, "worker-3", 7);
            before.accept(deep.a(), "worker-1", 5);
            LookbackSnapshot lookback = new LookbackSnapshot(Instant.EPOCH, Instant.EPOCH.plusSeconds(10),
                    Duration.ofMillis(20), Duration.ofMillis(10), 6, before.snapshot(), List.of());
            StackTreeSnapshot combined = LookbackTrees.combined(tree, lookback);
            assertThat(combined.maxDepth()).isEqualTo(depth);
            assertThat(combined.totalSamples()).isEqualTo(112);
            assertThat(combined.truncatedSamples()).isZero();
            assertWholePath(combined, deep.a(), 45);
            assertWholePath(combined, d, 7);
            assertWholePath(combined, deep.b(), 30);

            List<HotMethods.Method> hot = HotMethods.of(tree, HotMethods.DEFAULT_LIMIT);
            assertThat(hot).extracting(HotMethods.Method::method)
                    .containsExactly("app.Deep.burnA", "app.Deep.burnB", "app.Deep.burnC", "app.Deep.burnMid");
            assertThat(hot.get(0).selfPercent()).isEqualTo(40.0);
            assertThat(hot.get(0).totalPercent()).isEqualTo(40.0);
        });
    }

    @ParameterizedTest(name = "{0} frames")
    @ValueSource(ints = {4000, MAX_STACK_DEPTH})
    void comparedWithADeepReferenceTheDifferentialFlameGraphAndTheTwoCountsHoldTheWholeDepth(int depth)
            throws Throwable {
        onSmallStack(() -> {
            Deep deep = Deep.of(depth);
            StackTree before = new StackTree(MAX_STACK_DEPTH, 200_000, false);
            before.accept(deep.a(), "worker-1", 10);
            before.accept(deep.c(), "worker-3", 20);
            Instant start = Instant.EPOCH;
            Profile reference = ProfileBuilder.profile("ref", SessionTrigger.REFERENCE, before.snapshot())
                    .between(start, start.plusSeconds(1)).build();
            Profile profile = ProfileBuilder.profile("deep", SessionTrigger.CPU, deep.tree())
                    .between(start, start.plusSeconds(1)).build();
            ProfileView compared = ProfileView.of(LookbackView.INCLUDE)
                    .comparedWith(ProfileView.Compare.with(reference));

            String html = new String(Written.bytes(ProfileFormat.HTML, profile, compared), StandardCharsets.UTF_8);
            List<String> collapsed = new String(Written.bytes(ProfileFormat.COLLAPSED, profile, compared),
                    StandardCharsets.UTF_8).lines().toList();

            // burnA 40 against 10: the largest change; B forks off below the reference's frames: new from there.
            assertThat(html).contains("const maxdiff = 30;", "\nd=30\n", "\nd=U\n");
            // Each line whole (compared by hash: a failure would print 8192-frame lines).
            assertThat(collapsed.stream().map(String::hashCode).toList()).containsExactlyInAnyOrder(
                    (names(deep.a()) + " 10 40").hashCode(), (names(deep.b()) + " 0 30").hashCode(),
                    (names(deep.c()) + " 20 20").hashCode(), (names(deep.aMid()) + " 0 10").hashCode());
        });
    }

    @Test
    void atTheLimitAStackIsKeptWholeAndOneFrameMoreIsCutVisibly() throws Throwable {
        onSmallStack(() -> {
            Deep deep = Deep.of(MAX_STACK_DEPTH);
            List<Frame> tooDeep = new ArrayList<>(deep.c());
            tooDeep.add(MAX_STACK_DEPTH - 1, Frame.java("app.Deep.oneTooMany"));
            StackTree tree = new StackTree(MAX_STACK_DEPTH, 200_000, false);
            tree.accept(deep.a(), null, 3);
            tree.accept(tooDeep, null, 2);
            StackTreeSnapshot snapshot = tree.snapshot();

            assertWholePath(snapshot, deep.a(), 3);
            assertThat(snapshot.maxDepth()).isEqualTo(MAX_STACK_DEPTH);
            assertThat(snapshot.truncatedSamples()).isEqualTo(2);
            assertThat(snapshot.truncatedFrames()).isEqualTo(2);  // two dropped, a marker in their place
            String collapsed = Rendered.collapsed(snapshot);
            assertThat(collapsed).contains(";" + StackTree.TRUNCATED + ";app.Deep.burnC 2");
        });
    }

    /** Asserts that the stack is one path of the tree, frame for frame, ending in a node with this self weight. */
    private static void assertWholePath(StackTreeSnapshot tree, List<Frame> stack, long self) {
        int node = 0;
        for (Frame f : stack) {
            int next = -1;
            for (int c = tree.firstChild(node); c >= 0; c = tree.nextSibling(c)) {
                if (tree.frame(c).equals(f.name())) {
                    next = c;
                    break;
                }
            }
            assertThat(next).as("frame %s at depth %d", f.name(), tree.depth(node) + 1).isNotNegative();
            node = next;
        }
        assertThat(tree.depth(node)).isEqualTo(stack.size());
        assertThat(tree.self(node)).isEqualTo(self);
    }

    private static String names(List<Frame> stack) {
        StringBuilder sb = new StringBuilder();
        for (Frame f : stack) {
            sb.append(sb.length() == 0 ? "" : ";").append(f.name());
        }
        return sb.toString();
    }

    interface Body {
        void run() throws Throwable;
    }

    /** Runs on a thread with a small stack, so that recursion per frame fails with StackOverflowError. */
    static void onSmallStack(Body body) throws Throwable {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "deep-stacks-small-stack", SMALL_STACK);
        t.start();
        t.join(120_000);
        assertThat(t.isAlive()).as("finished in time").isFalse();
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
