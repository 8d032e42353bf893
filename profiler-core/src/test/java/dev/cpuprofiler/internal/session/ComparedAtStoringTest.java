package dev.cpuprofiler.internal.session;

import static dev.cpuprofiler.internal.session.ProfileStoreTest.profile;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.compare.ProfileComparator;
import dev.cpuprofiler.internal.cpu.OwnCpu;
import dev.cpuprofiler.internal.cpu.Ticker;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.EngineLock;
import dev.cpuprofiler.internal.engine.EngineSelector;
import dev.cpuprofiler.internal.engine.JfrExecutionEngine;
import dev.cpuprofiler.internal.lookback.Lookback;
import dev.cpuprofiler.internal.requests.RequestTimeline;
import dev.cpuprofiler.internal.testing.ScriptedEngine;
import dev.cpuprofiler.internal.testing.ScriptedEngine.Behaviour;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each profile is compared, as it is stored, with the reference of normal in force when its session started: the one
 * the store held then, whatever it holds by the end; none for a reference itself, none with references off. The
 * production sessions and store around a scripted engine (one sample of {@link ScriptedEngine#FRAME}).
 */
class ComparedAtStoringTest {

    @TempDir
    Path work;

    private final ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, null);

    private ProfilingSessions sessions(ScriptedEngine engine, CpuProfilerOptions options) {
        options.setEngine(EngineChoice.JFR_EXECUTION);
        return new ProfilingSessions(new EngineSelector(List.of(engine), new EngineLock()), options.validate(), store,
                Clock.systemUTC(), Thread::new, work, new DiskSpaceGuard(0), start -> () -> null, null, Lookback.off(),
                null, new RequestTimeline(false, null), Optional::empty, Duration.ofMinutes(1),
                new OwnCpu(null, null, Ticker.system(), Duration.ZERO));
    }

    private static Profile storedOf(RunningSession session, ProfileStore store) throws Exception {
        SessionOutcome outcome = session.outcome().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(outcome.failed()).as("%s", outcome).isFalse();
        return store.get(session.id()).orElseThrow();
    }

    @Test
    void aProfileIsComparedWithTheReferenceInForceWhenItStartedNotOneStoredSince() throws Exception {
        ScriptedEngine engine = ScriptedEngine.working(JfrExecutionEngine.ID).then(Behaviour.HANG_AT_STOP);
        ProfilingSessions sessions = sessions(engine, new CpuProfilerOptions());
        Profile inForce = store.add(profile(SessionTrigger.REFERENCE, "app.Calm.m", 3, null));

        RunningSession session = sessions.launch(SessionTrigger.MANUAL, Duration.ofMillis(50));
        engine.stopEntered.await(30, TimeUnit.SECONDS);
        // One session at a time: no reference is recorded while another session records, but should the store hold a
        // newer one by the end, the profile still says what it was compared with.
        Profile newer = store.add(profile(SessionTrigger.REFERENCE, "app.Calm.m", 3, null));
        engine.unhang.countDown();
        Profile stored = storedOf(session, store);

        assertThat(stored.comparison()).isNotNull();
        assertThat(stored.comparison()).as("what the comparator says of the two")
                .isEqualTo(ProfileComparator.compare(inForce, stored.withComparison(null)));
        assertThat(stored.comparison().reference()).isEqualTo(inForce.id());
        assertThat(stored.comparison().methods()).extracting(Profile.Comparison.MethodChange::method)
                .containsExactly(ScriptedEngine.FRAME);
        assertThat(store.reference()).contains(newer);
    }

    @Test
    void noReferenceNoComparisonAndAReferenceIsComparedWithNothing() throws Exception {
        ProfilingSessions sessions = sessions(ScriptedEngine.working(JfrExecutionEngine.ID),
                new CpuProfilerOptions());

        Profile before = storedOf(sessions.launch(SessionTrigger.MANUAL, Duration.ofMillis(20)), store);
        assertThat(before.comparison()).as("no reference yet").isNull();

        Profile reference = storedOf(sessions.launch(SessionTrigger.REFERENCE, Duration.ofMillis(20)), store);
        assertThat(reference.comparison()).as("a reference itself").isNull();
        assertThat(store.reference()).contains(reference);

        Profile after = storedOf(sessions.launch(SessionTrigger.CPU, Duration.ofMillis(20)), store);
        assertThat(after.comparison().reference()).isEqualTo(reference.id());
    }

    @Test
    void withReferencesOffNothingIsCompared() throws Exception {
        CpuProfilerOptions off = new CpuProfilerOptions();
        off.getReference().setEnabled(false);
        ProfilingSessions sessions = sessions(ScriptedEngine.working(JfrExecutionEngine.ID), off);
        store.add(profile(SessionTrigger.REFERENCE, "app.Calm.m", 3, null)); // one from before: not used

        Profile stored = storedOf(sessions.launch(SessionTrigger.MANUAL, Duration.ofMillis(20)), store);

        assertThat(stored.comparison()).isNull();
    }
}
