package dev.cpuprofiler.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionOutcome;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A session whose engine hangs never stores its profile: the shutdown waits for it no longer than its bound (here a
 * short {@code spring.lifecycle.timeout-per-shutdown-phase}), then goes on. (Keeping the profile, in a real context
 * and from outside: {@link ContextCloseMidSessionTest}, and realistic-app's {@code RealisticProfileTest}.)
 */
class CpuProfilerShutdownTest {

    @Test
    void aSessionThatNeverStoresItsProfileHoldsTheShutdownNoLongerThanThePhaseTimeout() throws Exception {
        CompletableFuture<SessionOutcome> never = new CompletableFuture<>();
        RunningSession stuck = stub(RunningSession.class, method -> switch (method) {
            case "id" -> "stuck";
            case "outcome" -> never;
            default -> null;
        });
        CpuProfiler profiler = stub(CpuProfiler.class,
                method -> method.equals("stopForShutdown") ? Optional.of(stuck) : null);
        Duration phaseTimeout = Duration.ofMillis(300);
        CpuProfilerShutdown shutdown = new CpuProfilerShutdown(profiler, phaseTimeout);
        shutdown.start();

        CountDownLatch stopped = new CountDownLatch(1);
        long before = System.nanoTime();
        shutdown.stop(stopped::countDown);

        assertThat(stopped.await(CpuProfilerShutdown.MAX_WAIT.toSeconds(), TimeUnit.SECONDS))
                .as("the shutdown went on").isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isGreaterThanOrEqualTo(phaseTimeout);
        assertThat(never).as("the session's own outcome is not completed by the time-out").isNotDone();
        assertThat(shutdown.isRunning()).isFalse();
    }

    /** An instance of the interface whose methods answer by name (null for the rest). */
    private static <T> T stub(Class<T> type, Function<String, Object> answers) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> answers.apply(method.getName())));
    }
}
