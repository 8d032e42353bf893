package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.RunningSession;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.cpuprofiler.internal.core.DefaultCpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.internal.engine.AsyncProfilerEngine;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.engine.EngineSelector;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.EngineUnavailableException;
import dev.cpuprofiler.internal.engine.EnginesHere;
import dev.cpuprofiler.internal.engine.JfrCpuTimeEngine;
import dev.cpuprofiler.internal.engine.JfrExecutionEngine;
import dev.cpuprofiler.internal.engine.JfrRepository;
import dev.cpuprofiler.internal.engine.ProfilingEngine;
import dev.cpuprofiler.internal.stack.StackNode;
import dev.cpuprofiler.internal.stack.StackSink;
import dev.cpuprofiler.internal.testing.FakeTime;
import dev.cpuprofiler.internal.testing.LogCapture;
import dev.cpuprofiler.internal.testing.ScriptedEngine.Behaviour;
import dev.cpuprofiler.internal.testing.ScriptedEngine;
import dev.cpuprofiler.CpuBreakdown;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Sessions through the facade, with the real engines of this JVM. */
class ProfilingSessionsTest {

    private final AtomicBoolean burning = new AtomicBoolean(true);
    private final AtomicLong burned = new AtomicLong();
    private Thread burner;

    @TempDir
    Path work;

    @BeforeAll
    static void jfrBeforeAsyncProfiler() throws Exception {
        EnginesHere.letJfrInstallSigprofFirst();
    }

    @BeforeEach
    void startBurning() {
        burner = new Thread(() -> {
            long x = 0;
            while (burning.get()) {
                x = burnDistinctively(x);
                burned.incrementAndGet();
            }
            if (x == 42) {
                System.out.println();
            }
        }, "session-test-burner");
        burner.setDaemon(true);
        burner.start();
    }

    @AfterEach
    void stopBurning() throws InterruptedException {
        burning.set(false);
        burner.join();
    }

    static long burnDistinctively(long seed) {
        long x = seed;
        for (int i = 0; i < 200_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 29;
        }
        return x;
    }

    private static CpuProfilerOptions options() {
        CpuProfilerOptions o = new CpuProfilerOptions();
        o.setEnabled(false); // only on-demand sessions here
        return o;
    }

    private static boolean containsFrame(StackNode node, String fragment) {
        if (node.frame().contains(fragment)) {
            return true;
        }
        for (StackNode child : node.children()) {
            if (containsFrame(child, fragment)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void onDemandSessionRecordsTheHotMethodAndStoresTheProfile() throws Exception {
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(options()).workDirectory(work).build()) {
            profiler.start();
            RunningSession session = profiler.startOnDemand(Duration.ofSeconds(2));
            assertThat(profiler.status().state()).isEqualTo(CpuProfilerStatus.State.PROFILING);
            assertThat(profiler.status().session().id()).isEqualTo(session.id());

            SessionOutcome outcome = session.outcome().toCompletableFuture().get(30, TimeUnit.SECONDS);

            assertThat(outcome.status()).isEqualTo(SessionOutcome.Status.COMPLETED);
            assertThat(outcome.profileId()).isEqualTo(session.id());
            awaitSessionEndRecorded(profiler);
            CpuProfilerStatus status = profiler.status();
            assertThat(status.state()).isEqualTo(CpuProfilerStatus.State.DISABLED);
            assertThat(status.session()).isNull();
            Profile profile = status.latestProfile();
            assertThat(profile.id()).isEqualTo(session.id());
            assertThat(profile.trigger()).isEqualTo(SessionTrigger.MANUAL);
            assertThat(profile.recording().engine().id()).isEqualTo(EnginesHere.autoExpected());
            assertThat(profile.recording().samples()).isGreaterThan(20);
            assertThat(profile.tree().totalSamples()).isEqualTo(profile.recording().samples());
            assertThat(containsFrame(StackNode.of(profile.tree()), "ProfilingSessionsTest.burnDistinctively")).isTrue();
            assertThat(profile.recording().duration()).isBetween(Duration.ofMillis(1900), Duration.ofSeconds(10));
            // Where the CPU went: the burner is an application thread, and the groups add up to the process.
            CpuBreakdown breakdown = profile.cpu().breakdown();
            assertThat(breakdown).isNotNull();
            assertThat(breakdown.processCpuTime()).isPositive();
            assertThat(breakdown.groups()).extracting(CpuBreakdown.Share::group)
                    .startsWith(CpuBreakdown.Group.APPLICATION, CpuBreakdown.Group.GC, CpuBreakdown.Group.JIT, CpuBreakdown.Group.PROFILER, CpuBreakdown.Group.JVM_OTHER);
            assertThat(breakdown.groups().stream().mapToDouble(CpuBreakdown.Share::percent).sum()).isBetween(95.0, 105.0);
            // The burner's thread counts as the application's: 49.5% in a clean-clone run beside two benchmark JVMs
            // (JIT and GC took more of this short session there), more on a quiet machine; 35% stays far above what
            // a misfiled burner would leave (the application's other threads are idle).
            assertThat(breakdown.percentOf(CpuBreakdown.Group.APPLICATION)).isGreaterThan(35.0);
            assertThat(profiler.store().get("latest")).contains(profile);
            assertThat(profiler.store().get(profile.id())).contains(profile);
        }
    }

    @Test
    void jfrExecutionNeverBlamesAThreadForWaitingInANativeCallAndEveryProfileCarriesConcurrency() throws Exception {
        // Tomcat's acceptor in miniature: it uses some CPU (each accept) but spends nearly all its time blocked in a
        // native accept(), which jdk.NativeMethodSample would sample as if it ran. A thread-level filter cannot tell.
        try (java.net.ServerSocket server = new java.net.ServerSocket(0)) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (!server.isClosed()) {
                        server.accept().close();
                    }
                } catch (java.io.IOException closed) {
                    // the test is over
                }
            }, "native-acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
            java.util.concurrent.ScheduledExecutorService client =
                    java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
            client.scheduleWithFixedDelay(() -> {
                try (java.net.Socket s = new java.net.Socket("127.0.0.1", server.getLocalPort())) {
                    s.getInputStream().read();
                } catch (java.io.IOException ignored) {
                    // the server closed
                }
            }, 0, 20, TimeUnit.MILLISECONDS);
            CpuProfilerOptions o = options();
            o.setEngine(EngineChoice.JFR_EXECUTION);
            o.setGroupByThread(true);
            try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o).workDirectory(work).build()) {
                profiler.start();
                RunningSession session = profiler.startOnDemand(Duration.ofSeconds(3));
                session.outcome().toCompletableFuture().get(30, TimeUnit.SECONDS);
                Profile profile = profiler.store().latest().orElseThrow();

                StackNode tree = StackNode.of(profile.tree());
                assertThat(tree.children()).extracting(StackNode::frame)
                        .anyMatch(f -> f.contains("session-test-burner"));
                // Net.accept's Java part runs for each connection (real CPU); its native accept0 only waits.
                assertThat(containsFrame(tree, "accept0")).as("a native accept() is waiting, not CPU").isFalse();
                assertThat(profile.recording().notes())
                        .anyMatch(n -> n.contains("native code") && n.contains("not sampled"));

                assertThat(profile.cpu().concurrency()).isNotNull();
                // Carried, and a share of the CPUs: its value is the burner's CPU over 2 CPUs, which depends on the
                // machine's load (0.5 when quiet, 0.17 measured in a CI run next to another test JVM); its accuracy
                // is ConcurrencySamplerTest's, against the threads' own CPU time.
                assertThat(profile.cpu().concurrency().utilization()).isGreaterThan(0.0).isLessThanOrEqualTo(1.0);
                assertThat(profile.cpu().concurrency().bottleneck()).isGreaterThanOrEqualTo(
                        profile.cpu().concurrency().utilization());
                // The burner used the most CPU; how much of a core it got depends on the machine's load, so
                // its label is left to ThreadLabelsOnRealThreadsTest.
                assertThat(profile.cpu().concurrency().threads().get(0).name()).isEqualTo("session-test-burner");
                assertThat(profiler.status().threads()).anyMatch(t -> t.name().equals("session-test-burner"));
            } finally {
                client.shutdownNow();
            }
            server.close();
            acceptor.join(5000);
        }
    }

    @Test
    void anEngineThatCannotStartFallsBackAndTheProfileSaysSo() throws Exception {
        ProfilingEngine refusing = ScriptedEngine.refusing("jfr-cpu-time", "pretend this JVM has no CPU-time sampler");
        List<ProfilingEngine> engines = new ArrayList<>();
        engines.add(refusing);
        engines.add(EngineSelector.standardEngines().get(2)); // jfr-execution
        CpuProfilerOptions o = options();
        o.setEngine(EngineChoice.AUTO);
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o).engines(engines).workDirectory(work).build()) {
            RunningSession session = profiler.startOnDemand(Duration.ofSeconds(1));
            session.outcome().toCompletableFuture().get(30, TimeUnit.SECONDS);
            Profile profile = profiler.store().latest().orElseThrow();
            assertThat(profile.recording().engine()).isEqualTo(EngineChoice.JFR_EXECUTION);
            assertThat(profile.recording().fallbacks()).singleElement().satisfies(f -> {
                assertThat(f.engineId()).isEqualTo("jfr-cpu-time");
                assertThat(f.reason()).contains("no CPU-time sampler");
            });
        }
    }

    @Test
    void aDiskReachingTheFloorEndsTheSessionEarlyKeepsItsSamplesAndRefusesTheNext() throws Exception {
        AtomicLong free = new AtomicLong(1L << 40);
        DiskSpaceGuard guard = new DiskSpaceGuard(64L << 20,
                existing -> new DiskSpaceGuard.Space(free.get(), 1L << 40), new JfrRepository());
        CpuProfilerOptions o = options();
        o.setEngine(EngineChoice.JFR_EXECUTION);
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o).diskSpaceGuard(guard).workDirectory(work).build()) {
            RunningSession session = profiler.startOnDemand(Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(20)).until(() -> session.samplesSoFar() > 0);
            assertThat(profiler.status().disk().problem()).isNull();
            free.set(10L << 20);

            assertThat(session.outcome().toCompletableFuture().get(20, TimeUnit.SECONDS).status())
                    .isEqualTo(SessionOutcome.Status.COMPLETED);
            Profile profile = profiler.store().latest().orElseThrow();
            assertThat(profile.recording().samples()).isPositive();
            assertThat(profile.recording().duration()).isLessThan(Duration.ofSeconds(25));
            assertThat(profile.recording().notes().get(0)).startsWith("stopped after").contains("of 30 s")
                    .contains("only 10 MB").contains("floor of 64 MB");
            assertThat(profiler.status().disk().problem()).contains("only 10 MB");
            assertThat(profiler.status().disk().places()).extracting(CpuProfilerStatus.Disk.Place::role)
                    .contains("jfr-repository", "work-directory");

            org.assertj.core.api.Assertions.assertThatThrownBy(() -> profiler.startOnDemand(Duration.ofSeconds(1)))
                    .hasMessageStartingWith("jfr-execution cannot record: only 10 MB");

            free.set(1L << 40);  // space again: profiles again
            RunningSession again = profiler.startOnDemand(Duration.ofSeconds(1));
            assertThat(again.outcome().toCompletableFuture().get(20, TimeUnit.SECONDS).status())
                    .isEqualTo(SessionOutcome.Status.COMPLETED);
        }
    }

    @Test
    void noEngineAtAllFailsTheStartWithEveryReason() {
        ProfilingEngine refusing = ScriptedEngine.refusing("jfr-execution", "JFR is disabled in this JVM");
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(options()).engines(List.of(refusing)).workDirectory(work)
                .build()) {
            List<SessionOutcome> ended = new CopyOnWriteArrayList<>();
            profiler.addSessionEndListener((trigger, session, outcome) -> ended.add(outcome));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> profiler.startOnDemand(Duration.ofSeconds(1)))
                    .hasMessageContaining("JFR is disabled");
            assertThat(profiler.status().state()).isEqualTo(CpuProfilerStatus.State.DISABLED);
            assertThat(ended).singleElement().satisfies(x -> assertThat(x.failed()).isTrue());
        }
    }

    /**
     * The application is shut down while a profile records, with each engine that can run here: the session stops
     * early and keeps what it recorded (its profile is stored, says it was cut short by shutdown, and lasts as long
     * as it recorded, not the five minutes planned); the engine stops (no JFR recording of ours stays open,
     * async-profiler is no longer active), the private work directory under java.io.tmpdir goes with the recording
     * file in it, every thread the profiler made ends, and the application's own thread keeps running untouched.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {JfrCpuTimeEngine.ID, AsyncProfilerEngine.ID, JfrExecutionEngine.ID})
    void closingMidSessionKeepsTheProfileStopsTheEngineDeletesItsFilesAndLeavesNoThreadOfOurs(String engineId) throws Exception {
        EnginesHere.assumeRunnable(engineId);
        WorkDirectoryWitness engine = new WorkDirectoryWitness(EnginesHere.create(engineId));
        List<Thread> ours = new CopyOnWriteArrayList<>();
        CpuProfilerOptions o = options();
        o.setEngine(EngineChoice.fromId(engineId));
        // No workDirectory(...): the profiler makes its own private one, as in production.
        DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o).engines(List.of(engine)).threadFactory(r -> {
            Thread t = new Thread(r);
            ours.add(t);
            return t;
        }).build();
        profiler.start();
        long recording = System.nanoTime();
        RunningSession session = profiler.startOnDemand(Duration.ofMinutes(5));
        await().atMost(Duration.ofSeconds(20)).until(() -> session.samplesSoFar() > 0);

        Path workDirectory = engine.workDirectory;
        assertThat(workDirectory.getFileName().toString()).startsWith("cpuprofiler-");
        assertThat(workDirectory.getParent().toAbsolutePath().normalize())
                .isEqualTo(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize());
        if (workDirectory.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(workDirectory)))
                    .as("created by the first recording, for this user only").isEqualTo("rwx------");
        }
        assertThat(fileNames(workDirectory)).as("the engine's recording file")
                .anyMatch(name -> name.startsWith(session.id() + "-" + engineId));
        String recordingName = "cpuprofiler " + engineId + " " + session.id();
        boolean jfr = !engineId.equals(AsyncProfilerEngine.ID);
        if (jfr) {
            assertThat(jfrRecordings()).contains(recordingName);
        } else {
            assertThat(asyncProfilerStatus()).contains("running");
        }
        assertThat(ours).extracting(Thread::getName).contains("cpuprofiler-sampler", "cpuprofiler-session");
        long applicationWorkBefore = burned.get();

        long before = System.nanoTime();
        profiler.close();

        assertThat(Duration.ofNanos(System.nanoTime() - before)).as("close() does not hang")
                .isLessThan(Duration.ofSeconds(10));
        SessionOutcome outcome = session.outcome().toCompletableFuture().get(1, TimeUnit.SECONDS);
        assertThat(outcome.status()).as(outcome.toString()).isEqualTo(SessionOutcome.Status.COMPLETED);
        assertThat(outcome.reason()).isEqualTo(CpuProfiler.CUT_SHORT_BY_SHUTDOWN);
        Profile kept = profiler.profile(session.id()).orElseThrow();
        assertThat(kept.recording().samples()).as("the samples recorded before the shutdown").isPositive();
        assertThat(kept.recording().notes().get(0)).startsWith("cut short by shutdown: recorded ")
                .endsWith(" of the 300 s planned");
        assertThat(kept.recording().duration()).as("what it recorded, not what was planned")
                .isPositive().isLessThan(Duration.ofNanos(System.nanoTime() - recording));
        assertThat(workDirectory).doesNotExist();
        if (jfr) {
            assertThat(jfrRecordings()).doesNotContain(recordingName);
        } else {
            assertThat(asyncProfilerStatus()).contains("not active");
        }
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(ours)
                .as("threads the profiler made").noneMatch(Thread::isAlive));
        // The application's own thread asked for nothing and is none the worse.
        assertThat(burner.isAlive()).isTrue();
        assertThat(burner.isInterrupted()).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> burned.get() > applicationWorkBefore);
        // A new profiler (a restarted context) records with the engine the closed one let go of.
        try (DefaultCpuProfiler again = DefaultCpuProfiler.builder(o).build()) {
            RunningSession s = again.startOnDemand(Duration.ofSeconds(1));
            assertThat(s.outcome().toCompletableFuture().get(30, TimeUnit.SECONDS).status())
                    .isEqualTo(SessionOutcome.Status.COMPLETED);
        }
    }

    /**
     * What the starter does when the application context stops: the session stops early, its profile, noted as cut
     * short and as long as it recorded, reaches the stored-profile listeners (an exporter) while the profiler is still
     * open, and no session starts any more.
     */
    @Test
    void stoppingForShutdownHandsTheCutShortProfileToItsListenersAndStartsNoOther() throws Exception {
        CpuProfilerOptions o = options();
        o.setEngine(EngineChoice.JFR_EXECUTION);
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o)
                .engines(List.of(ScriptedEngine.working(JfrExecutionEngine.ID))).workDirectory(work).build()) {
            List<Profile> stored = new CopyOnWriteArrayList<>();
            profiler.addStoredProfileListener(stored::add);
            profiler.start();
            RunningSession session = profiler.startOnDemand(Duration.ofSeconds(30));

            assertThat(profiler.stopForShutdown()).containsSame(session);

            SessionOutcome outcome = session.outcome().toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(outcome.status()).as(outcome.toString()).isEqualTo(SessionOutcome.Status.COMPLETED);
            assertThat(outcome.reason()).isEqualTo(CpuProfiler.CUT_SHORT_BY_SHUTDOWN);
            assertThat(stored).singleElement().satisfies(p -> {
                assertThat(p.id()).isEqualTo(session.id());
                assertThat(p.recording().samples()).isPositive();
                assertThat(p.recording().notes().get(0)).startsWith("cut short by shutdown: recorded ")
                        .endsWith(" of the 30 s planned");
                assertThat(p.recording().duration()).isLessThan(Duration.ofSeconds(10));
            });
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> profiler.startOnDemand(Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("shutting down");
            assertThat(profiler.stopForShutdown()).isEmpty();
        }
    }

    @Test
    void aClosedProfilerStartsNoSessionAndLeavesNothingBehind() {
        WorkDirectoryWitness engine = new WorkDirectoryWitness(EnginesHere.create(JfrExecutionEngine.ID));
        List<Thread> ours = new CopyOnWriteArrayList<>();
        CpuProfilerOptions o = options();
        o.setEngine(EngineChoice.JFR_EXECUTION);
        DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o).engines(List.of(engine)).threadFactory(r -> {
            Thread t = new Thread(r);
            ours.add(t);
            return t;
        }).build();
        profiler.start();
        profiler.close();
        int threadsBefore = ours.size();

        // Say an HTTP request or a scheduled job still holds the profiler while the application shuts down.
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> profiler.startOnDemand(Duration.ofSeconds(30)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("shutting down");

        assertThat(engine.workDirectory).as("no engine started after close").isNull();
        assertThat(ours).hasSize(threadsBefore);
        assertThat(profiler.status().session()).isNull();
    }

    /**
     * An engine that crashes at start, then fails at stop, then hangs at stop: each time only that session fails,
     * the policy leaves PROFILING (the watchdog gives up on the hung one), no second recording starts while the
     * hung one holds the engine, the next session records once the engine lets go, and the monitor keeps ticking.
     */
    @Test
    void anEngineThatCrashesFailsOrHangsCostsOnlyItsOwnSession() throws Exception {
        ScriptedEngine engine = ScriptedEngine.working(JfrExecutionEngine.ID);
        FakeTime clock = new FakeTime(java.time.Instant.now()); // the policy's watchdog reads it; sessions wait in real time
        CpuProfilerOptions o = options();
        o.setEngine(EngineChoice.JFR_EXECUTION);
        o.setSamplingInterval(Duration.ofMillis(20));
        o.setPollingInterval(Duration.ofMillis(20));
        try (LogCapture logs = new LogCapture();
                DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o).engines(List.of(engine)).clock(clock).build()) {
            List<SessionOutcome> ended = new CopyOnWriteArrayList<>();
            profiler.addSessionEndListener((trigger, session, outcome) -> ended.add(outcome));
            profiler.start();

            engine.next(Behaviour.CRASH_AT_START);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> profiler.startOnDemand(Duration.ofSeconds(1)))
                    // The served reason names the exception's type; its text is in the log only.
                    .hasMessageContaining("IllegalStateException").hasMessageNotContaining("engine exploded");
            assertThat(profiler.status().state()).isEqualTo(CpuProfilerStatus.State.DISABLED);

            engine.next(Behaviour.FAIL_AT_STOP);
            SessionOutcome failed = profiler.startOnDemand(Duration.ofSeconds(1)).outcome().toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            assertThat(failed.status()).isEqualTo(SessionOutcome.Status.FAILED);
            assertThat(failed.reason()).contains("could not write");
            awaitSessionEndRecorded(profiler);
            assertThat(profiler.status().state()).isEqualTo(CpuProfilerStatus.State.DISABLED);
            assertThat(profiler.store().size()).isZero();
            assertThat(logs.messages(Level.WARN)).as("the failed session is logged once, with the engine's error")
                    .filteredOn(m -> m.matches("Profiling session \\S+ failed")).hasSize(1);

            engine.next(Behaviour.HANG_AT_STOP);
            RunningSession hung = profiler.startOnDemand(Duration.ofSeconds(1));
            try {
                assertThat(engine.stopEntered.await(30, TimeUnit.SECONDS)).isTrue();
                assertThat(profiler.status().state()).isEqualTo(CpuProfilerStatus.State.PROFILING);
                clock.advance(Duration.ofSeconds(40)); // past duration + the watchdog's 30 s grace
                await().atMost(Duration.ofSeconds(10)).until(() -> profiler.status().state() == CpuProfilerStatus.State.DISABLED);
                // Told just after the state changed, on the thread that ended it.
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(ended).last().satisfies(x -> {
                    assertThat(x.failed()).isTrue();
                    assertThat(x.reason()).contains("did not end");
                }));
                // The hung recording still holds the engine: a second one is refused, not run alongside.
                org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> profiler.startOnDemand(Duration.ofSeconds(1))).hasMessageContaining("only one engine");
            } finally {
                engine.unhang.countDown();
            }
            hung.outcome().toCompletableFuture().get(30, TimeUnit.SECONDS);

            engine.next(Behaviour.WORK);
            RunningSession ok = profiler.startOnDemand(Duration.ofSeconds(1));
            assertThat(ok.outcome().toCompletableFuture().get(30, TimeUnit.SECONDS).status())
                    .isEqualTo(SessionOutcome.Status.COMPLETED);
            assertThat(profiler.store().get(ok.id()))
                    .hasValueSatisfying(p -> assertThat(p.recording().samples()).isEqualTo(1));
            assertThat(engine.starts).hasValue(4);

            long samples = profiler.sampler().samples();
            await().atMost(Duration.ofSeconds(10)).until(() -> profiler.sampler().samples() >= samples + 3);
        }
    }

    /**
     * The outcome completes on the session's thread just before the policy, called back on that same thread, records
     * the end: a test woken by the outcome can look a moment too early.
     */
    private static void awaitSessionEndRecorded(DefaultCpuProfiler profiler) {
        await().atMost(Duration.ofSeconds(10)).until(() -> profiler.activeSession().isEmpty());
    }

    private static List<String> fileNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).toList();
        }
    }

    private static List<String> jfrRecordings() {
        return FlightRecorder.getFlightRecorder().getRecordings().stream().map(Recording::getName).toList();
    }

    private static String asyncProfilerStatus() throws Exception {
        return one.profiler.AsyncProfiler.getInstance().execute("status");
    }

    /** A real engine that remembers the work directory the profiler hands it. */
    private static final class WorkDirectoryWitness implements ProfilingEngine {

        private final ProfilingEngine engine;
        volatile Path workDirectory;

        WorkDirectoryWitness(ProfilingEngine engine) {
            this.engine = engine;
        }

        @Override
        public String id() {
            return engine.id();
        }

        @Override
        public EngineRecording start(EngineSettings settings, StackSink sink) throws EngineUnavailableException {
            workDirectory = settings.workDirectory();
            return engine.start(settings, sink);
        }
    }
}
