package dev.cpuprofiler.autoconfigure.endpoint;

import static dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpointFixtureTest.fixture;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Renders kept within their byte bound, reused, gone with their profile, and at most so many at once. */
class ProfileRendersTest {

    private static final ProfileView ALL = new ProfileView(LookbackView.INCLUDE, 0);
    /** Bytes each format renders to here. */
    private static final Map<ProfileFormat, Integer> SIZES = Map.of(ProfileFormat.HTML, 40, ProfileFormat.PPROF, 40,
            ProfileFormat.TEXT, 30);

    private final AtomicInteger rendered = new AtomicInteger();
    private final Profile p1 = fixture("p1", SessionTrigger.CPU, null);
    private final Profile p2 = fixture("p2", SessionTrigger.CPU, null);

    private ProfileRenders renders(long maxBytes, int maxConcurrent) {
        return new ProfileRenders(maxBytes, maxConcurrent, (profile, format, view) -> {
            rendered.incrementAndGet();
            return new byte[SIZES.get(format)];
        });
    }

    @Test
    void aSecondReaderGetsTheSameBytesWithoutARender() throws Exception {
        ProfileRenders renders = renders(100, 1);
        byte[] first = renders.bytes(p1, ProfileFormat.HTML, ALL, List.of(p1, p2)).orElseThrow();
        byte[] second = renders.bytes(p1, ProfileFormat.HTML, ALL, List.of(p1, p2)).orElseThrow();
        assertThat(second).isSameAs(first);
        assertThat(rendered).hasValue(1);
        // Another view or format is another render.
        renders.bytes(p1, ProfileFormat.HTML, new ProfileView(LookbackView.EXCLUDE, 0), List.of(p1, p2));
        renders.bytes(p1, ProfileFormat.PPROF, ALL, List.of(p1, p2));
        assertThat(rendered).hasValue(3);
    }

    @Test
    void theLeastRecentlyReadGoFirstBeyondTheBound() throws Exception {
        ProfileRenders renders = renders(100, 1);
        List<Profile> retained = List.of(p1, p2);
        byte[] html1 = renders.bytes(p1, ProfileFormat.HTML, ALL, retained).orElseThrow();
        renders.bytes(p2, ProfileFormat.HTML, ALL, retained);
        renders.bytes(p1, ProfileFormat.HTML, ALL, retained); // read again: now the most recent
        renders.bytes(p1, ProfileFormat.PPROF, ALL, retained); // 120 bytes: p2's flame graph goes
        assertThat(renders.keptBytes()).isEqualTo(80);
        assertThat(rendered).hasValue(3);
        assertThat(renders.bytes(p1, ProfileFormat.HTML, ALL, retained).orElseThrow()).isSameAs(html1);
        renders.bytes(p2, ProfileFormat.HTML, ALL, retained);
        assertThat(rendered).as("p2's flame graph rendered again").hasValue(4);
        assertThat(renders.keptBytes()).isLessThanOrEqualTo(100);
    }

    @Test
    void aRenderLargerThanTheBoundIsServedButNotKept() throws Exception {
        ProfileRenders renders = renders(35, 1);
        renders.bytes(p1, ProfileFormat.HTML, ALL, List.of(p1));
        renders.bytes(p1, ProfileFormat.HTML, ALL, List.of(p1));
        assertThat(rendered).hasValue(2);
        assertThat(renders.keptBytes()).isZero();
    }

    @Test
    void aDroppedProfilesRendersGoWithIt() throws Exception {
        ProfileRenders renders = renders(1000, 1);
        renders.bytes(p1, ProfileFormat.HTML, ALL, List.of(p1, p2));
        renders.bytes(p1, ProfileFormat.PPROF, ALL, List.of(p1, p2));
        assertThat(renders.keptBytes()).isEqualTo(80);
        // p1 dropped by the store: the next render forgets its bytes.
        renders.bytes(p2, ProfileFormat.TEXT, ALL, List.of(p2));
        assertThat(renders.keptBytes()).isEqualTo(30);
        // A new profile under a dropped one's id is not served the old bytes.
        Profile again = fixture("p2", SessionTrigger.MANUAL, null);
        renders.bytes(again, ProfileFormat.TEXT, ALL, List.of(again));
        assertThat(rendered).hasValue(4);
    }

    @Test
    void beyondTheConcurrentRendersARenderIsRefusedAtOnce() throws Exception {
        CountDownLatch rendering = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        ProfileRenders renders = new ProfileRenders(1000, 1, (profile, format, view) -> {
            rendering.countDown();
            try {
                finish.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new byte[10];
        });
        CompletableFuture<byte[]> slow = CompletableFuture.supplyAsync(() -> {
            try {
                return renders.bytes(p1, ProfileFormat.HTML, ALL, List.of(p1, p2)).orElseThrow();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        assertThat(rendering.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(renders.bytes(p2, ProfileFormat.HTML, ALL, List.of(p1, p2))).as("refused while one renders")
                .isEmpty();
        finish.countDown();
        assertThat(slow.get(30, TimeUnit.SECONDS)).hasSize(10);
        assertThat(renders.bytes(p2, ProfileFormat.HTML, ALL, List.of(p1, p2))).as("the slot is free again")
                .isPresent();
    }
}
