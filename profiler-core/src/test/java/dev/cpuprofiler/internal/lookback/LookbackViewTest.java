package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.stack.LookbackTrees;

import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.LookbackView;

import static dev.cpuprofiler.internal.lookback.LookbackRingTest.stack;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.internal.stack.StackNode;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.StackTreeSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a reader sees of a profile with a look-back part, with it, without it, or it alone. */
class LookbackViewTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final StackTreeSnapshot session = tree(100, "app.Main.run", "app.Main.workAfter");
    private final LookbackSnapshot lookback = new LookbackSnapshot(T0, T0.plusSeconds(30), Duration.ofMillis(20),
            Duration.ofMillis(10), 40, tree(80, "app.Main.run", "app.Main.burstBefore"), List.of());

    @Test
    void includeShowsBothPartsMerged() {
        StackNode root = StackNode.of(LookbackTrees.select(LookbackView.INCLUDE, session, lookback));

        assertThat(root.total()).isEqualTo(180);
        assertThat(root.child("app.Main.run").child("app.Main.burstBefore").total()).isEqualTo(80);
        assertThat(root.child("app.Main.run").child("app.Main.workAfter").total()).isEqualTo(100);
    }

    @Test
    void excludeShowsTheSessionAsIfLookbackWereOff() {
        StackNode root = StackNode.of(LookbackTrees.select(LookbackView.EXCLUDE, session, lookback));

        assertThat(root.total()).isEqualTo(100);
        assertThat(root.child("app.Main.run").child("app.Main.burstBefore")).isNull();
    }

    @Test
    void onlyShowsWhatRanBeforeTheTrigger() {
        assertThat(StackNode.of(LookbackTrees.select(LookbackView.ONLY, session, lookback)).child("app.Main.run").children())
                .extracting(StackNode::frame).containsExactly("app.Main.burstBefore");
        assertThat(LookbackTrees.select(LookbackView.ONLY, session, null).totalSamples()).isZero();
        assertThat(LookbackTrees.select(LookbackView.INCLUDE, session, null)).isSameAs(session);
    }

    @Test
    void mergingLargeTreesCutsNothing() {
        StackTree big = new StackTree(512, 100_000, false);
        StackTree other = new StackTree(512, 100_000, false);
        for (int i = 0; i < 20_000; i++) {
            big.accept(stack("app.A.run", "gen.A" + i + ".m"), "t", 1);
            other.accept(stack("app.B.run", "gen.B" + i + ".m", "gen.B" + i + ".n"), "t", 2);
        }
        LookbackSnapshot part = new LookbackSnapshot(T0, T0.plusSeconds(30), Duration.ofMillis(20),
                Duration.ofMillis(10), 20_000, other.snapshot(), List.of());

        StackTreeSnapshot combined = LookbackTrees.combined(big.snapshot(), part);

        assertThat(combined.totalSamples()).isEqualTo(60_000);
        assertThat(combined.truncatedSamples()).isZero();
        assertThat(combined.size()).isEqualTo(big.snapshot().size() + other.snapshot().size() - 1);
    }

    @Test
    void theEndpointParameterNamesAView() {
        assertThat(LookbackView.of("Exclude")).hasValue(LookbackView.EXCLUDE);
        assertThat(LookbackView.ONLY.id()).isEqualTo("only");
        assertThat(LookbackView.of("some")).isEmpty();
    }

    private static StackTreeSnapshot tree(long weight, String... frames) {
        StackTree t = new StackTree(512, 1_000, false);
        t.accept(stack(frames), "main", weight);
        return t.snapshot();
    }
}
