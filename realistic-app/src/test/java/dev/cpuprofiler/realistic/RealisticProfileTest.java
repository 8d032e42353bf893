package dev.cpuprofiler.realistic;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * The starter as a user installs it (the dependency; the JVM's options, the engine and every profiler.cpu.* that
 * shape an on-demand profile at their defaults), on a realistic Spring MVC + JPA + Thymeleaf app under HTTP load: one
 * on-demand profile of 10 s after at least 10 s of load, on the JDK running the tests (async-profiler, the default
 * engine before JDK 25) and, in {@link RealisticProfileOnJdk25Test} (a class of its own, so that the build's two test
 * JVMs share the runs), on JDK 25 (jfr-cpu-time). It judges what does not depend on how far the JIT has got: the
 * default engine recorded it, no stack is cut, no idle wait is blamed for CPU, the Java CPU sits under
 * {@code DispatcherServlet.doDispatch}, the hottest method is the one the shop is built around, and
 * {@code cpuBreakdown} adds up (see {@link ProfileFigures} for the figures' exact definitions).
 *
 * <p>The shop is the secrets search's ({@link NoSecretsServedChecks}, one child JVM per JDK for both): the judged
 * profile is recorded once its CPU-triggered profile is served (the trigger then cools down for hours and its
 * look-back steps aside), under the same load, which counts towards the warm-up; on this JDK a SIGTERM mid-session
 * ends it.
 *
 * <p>The comparison with async-profiler's own agent in a twin JVM (the top method's share within a point or two) is a
 * measurement of two JVMs' warm-up states, not a correctness check: it lives in {@code benchmarks/realistic.sh}
 * ({@link RealisticBenchmark}), after a 60 s warm-up.
 *
 * <p>{@code -Drealistic.engine=async-profiler} (or another engine id) forces the starter's engine, to check the
 * harness against an engine that walks deep stacks; the async-profiler jar is then added to the child's classpath.
 */
class RealisticProfileTest extends NoSecretsServedChecks {

    private static final Duration WARM_UP = Duration.ofSeconds(10);
    /** The judged profile: 6 s, 336-548 samples with the other shop loaded beside it (at least 200 are asked for). */
    private static final Duration WINDOW = Duration.ofSeconds(6);
    static final String HOT_METHOD = "dev.cpuprofiler.realistic.pricing.DemandForecaster.sumOfSquaredErrors";

    /**
     * The default engine on this JDK, pushing pprof; ends with a SIGTERM while an on-demand profile of 30 s records:
     * the process exits on its own within the bound, the profile is kept, cut short, in the output directory and
     * pushed, and searched for secrets with the rest.
     */
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void defaultInstallOnThisJdkServesNoSecretsAndASigtermMidSessionKeepsTheProfile() throws Exception {
        String javaHome = System.getProperty("java.home");
        String name = "jdk" + feature(javaHome);
        Outcome o = run(name, javaHome, forcedEngine(), "pprof", true, List.of(), judgedProfile(javaHome, name));
        SoftAssertions soft = judge(o.judged(), javaHome);
        soft.check(o::assertNoSecrets);
        soft.assertThat(o.jfrStatus()).as("format=jfr of the default engine's profile (%s)", o.engine())
                .isEqualTo(200);
        soft.check(() -> o.kept().assertKept());
        soft.assertAll();
    }

    /** {@code -Drealistic.engine}, or null for the default install's. */
    static String forcedEngine() {
        String engine = RealisticRun.Settings.property("realistic.engine", "");
        return engine.isEmpty() ? null : engine;
    }

    /** The engine the starter records with on that JDK: the default install's, or {@code -Drealistic.engine}. */
    static String expectedEngine(String javaHome) throws Exception {
        String engine = forcedEngine();
        return engine != null ? engine : feature(javaHome) >= 25 ? "jfr-cpu-time" : "async-profiler";
    }

    /**
     * The profile judged: the rest of the warm-up (at least {@link #WARM_UP} of the shop's load in all), then one
     * on-demand profile of {@link #WINDOW}, its collapsed stacks kept as {@code starter-<shop>.collapsed}.
     */
    static Judged judgedProfile(String javaHome, String shop) {
        return (app, load, loadStarted) -> {
            long loaded = System.nanoTime() - loadStarted;
            if (loaded < WARM_UP.toNanos()) {
                TimeUnit.NANOSECONDS.sleep(WARM_UP.toNanos() - loaded);
            }
            System.out.printf("RealisticProfileTest JDK %d: %.1f s of load before the window%n", feature(javaHome),
                    (System.nanoTime() - loadStarted) / 1e9);
            RealisticRun run = new RealisticRun(RealisticRun.Settings.fromSystemProperties()
                    .with(javaHome, WARM_UP, WARM_UP, WINDOW));
            return run.profileWindow(app, load, "starter-" + shop, forcedEngine());
        };
    }

    /**
     * Judges what does not depend on the JDK; the caller adds its own checks to the soft assertions returned, and
     * asserts them all.
     */
    static SoftAssertions judge(RealisticRun.Result ours, String javaHome) throws Exception {
        int feature = feature(javaHome);
        ProfileFigures o = ours.figures();
        JsonNode hot = ours.profile().path("hotMethods");
        System.out.printf("RealisticProfileTest JDK %d: engine %s, samples %d, idle wait %.1f%%, root cut %.1f%%, "
                + "dispatch %.1f%% of Java, top self %s %.1f%% of Java, next %s %.1f%% of all, %.0f req/s%n", feature,
                ours.engine(), o.samples(), o.idleWaitPercent(), o.rootCutPercent(), o.dispatchPercent(),
                o.topSelfMethod(), o.topSelfPercent(), hot.path(1).path("method").asString(),
                hot.path(1).path("selfPercent").asDouble(), ours.requestsPerSecond());

        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(ours.engine()).as("the profile's engine on JDK %d", feature)
                .isEqualTo(expectedEngine(javaHome));
        soft.assertThat(o.samples()).as("samples in the starter's profile").isGreaterThanOrEqualTo(200);
        // Measured in 10 clean-clone CI runs per JDK on 2 CPUs (one next to a one-CPU hog): 0.3-1.5% on JDK 17
        // (async-profiler), 0.0% on JDK 25 (jfr-cpu-time); 0.0-1.7% in BENCHMARKS.md's longer runs. A stack cut at
        // the root is an engine bug (47.7% and 89.5% when JFR kept its default 64 frames).
        soft.assertThat(o.rootCutPercent()).as("%% of samples with a cut root").isLessThanOrEqualTo(5.0);
        // Measured 0.3-1.1% (JDK 17), 0.0-0.8% (JDK 25) in the same runs; 1.3-1.8% (JDK 17) and 0.0-1.6% (JDK 25)
        // with this module's two shops loaded side by side (2026-12-08); 42% when jfr-execution still recorded
        // jdk.NativeMethodSample (the bug this catches). So 4.
        soft.assertThat(o.idleWaitPercent()).as("%% of samples in idle waits (%s)", o.idleLeavesSummary())
                .isLessThanOrEqualTo(4.0);
        // Measured 88.7-93.2% (JDK 17; 88.7 with the hog) and 93.3-96.1% (JDK 25) in the same runs, 90.1-95.5% for
        // async-profiler's own agent on the same load; 46.7-51.0% when stacks were cut at JFR's 64 frames. Later, on
        // 2026-11-27: 83.9% (JDK 17) and 89.6% (JDK 25) in a clean-clone CI run whose shop served 47 req/s (115 alone),
        // the rest in Tomcat's and the shop's filters around the dispatch; 87.5% and 88.9% alone, before and after
        // that day's changes. On 2026-12-08, with this module's two shops loaded side by side (each served 41 req/s
        // on JDK 17), 77.7%. So 70: well below the spread, far above the bug.
        soft.assertThat(o.dispatchPercent()).as("%% of Java samples under doDispatch").isGreaterThanOrEqualTo(70.0);
        // The pricing chain's forecaster burns about half the CPU: 38.4-63.8% of Java samples in the same runs (the
        // next method under 5% of all samples), 44.6-66.1% in every engine's and the agent's benchmark profile.
        soft.assertThat(hot.size()).as("hotMethods entries").isBetween(1, 20);
        soft.assertThat(hot.path(0).path("method").asString()).as("top hot method").isEqualTo(HOT_METHOD);
        JsonNode breakdown = ours.profile().path("cpuBreakdown");
        double sum = 0;
        for (JsonNode g : breakdown.path("groups")) {
            sum += g.path("percent").asDouble();
        }
        System.out.println("cpuBreakdown " + breakdown);
        soft.assertThat(sum).as("cpuBreakdown percents add up").isBetween(95.0, 105.0);
        soft.assertThat(breakdown.path("groups").path(0).path("group").asString()).isEqualTo("application");
        soft.assertThat(breakdown.path("groups").path(0).path("percent").asDouble()).as("application share")
                .isGreaterThan(50.0);

        // CPU by endpoint: the load's two endpoints by their URI templates (never a raw path), each with requests.
        JsonNode endpoints = ours.profile().path("endpoints");
        System.out.println("endpoints " + endpoints);
        java.util.Map<String, JsonNode> byName = new java.util.HashMap<>();
        endpoints.forEach(e -> byName.put(e.path("endpoint").asString(), e));
        soft.assertThat(byName).as("endpoints").containsKeys("GET /catalogue/{categoryId}",
                "GET /api/customers/{customerId}/statement");
        soft.assertThat(byName.keySet()).as("endpoint names").noneMatch(n -> n.matches(".*/\\d+.*|.*\\?.*"));
        byName.forEach((name, e) -> {
            if (name.startsWith("GET /")) {
                soft.assertThat(e.path("requests").asLong()).as("requests of %s", name).isPositive();
            }
        });
        return soft;
    }

    /** The feature release of a JDK, from the {@code JAVA_VERSION} of its {@code release} file (e.g. 25.0.3). */
    static int feature(String javaHome) throws Exception {
        for (String line : Files.readAllLines(Path.of(javaHome, "release"))) {
            if (line.startsWith("JAVA_VERSION=")) {
                return Runtime.Version.parse(line.substring("JAVA_VERSION=".length()).replace("\"", "")).feature();
            }
        }
        throw new IllegalStateException("no JAVA_VERSION in " + javaHome + "/release");
    }
}
