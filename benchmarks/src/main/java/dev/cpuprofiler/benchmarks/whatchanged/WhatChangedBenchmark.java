package dev.cpuprofiler.benchmarks.whatchanged;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code benchmarks/compare.sh}: {@link WhatChangedScenario} with two calm profiles (the noise floor) over the matrix
 * the issue names, platform and virtual threads on JDK 17 and JDK 25, each configuration {@code --repeats} times in a
 * fresh application, judged by {@link WhatChangedChecks}; then one Markdown table with the spread of every ratio.
 *
 * <pre>
 * --repeats=N        runs per configuration (default 5)
 * --only=a,b         configurations, e.g. 17-platform,25-virtual (default: all there are)
 * --results=DIR      where the Markdown goes (default benchmarks/results)
 * </pre>
 * JDK 17 is this JVM's JDK (compare.sh runs it with {@code java}, or {@code $JAVA_HOME}); JDK 25 is {@code $JDK25_HOME}
 * or {@code /usr/lib/jvm/temurin-25-jdk-amd64}. Virtual threads run where the JDK has them (21+). Each run's
 * application log is kept in {@code benchmarks/target/compare-work/<stamp>/}.
 */
public final class WhatChangedBenchmark {

    private static final String JDK25_DEFAULT = "/usr/lib/jvm/temurin-25-jdk-amd64";

    /** One configuration of the matrix. */
    private record Configuration(Path javaHome, int feature, boolean virtualThreads) {

        String id() {
            return feature + "-" + (virtualThreads ? "virtual" : "platform");
        }
    }

    /** One run: its outcome (null when it failed before the end) and what failed. */
    private record Run(Configuration configuration, int number, WhatChangedScenario.Outcome outcome,
            List<String> failures) {
    }

    private WhatChangedBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int repeats = 5;
        List<String> only = null;
        Path results = Path.of("benchmarks", "results");
        for (String a : args) {
            if (a.startsWith("--repeats=")) {
                repeats = Integer.parseInt(a.substring("--repeats=".length()));
            } else if (a.startsWith("--only=")) {
                only = List.of(a.substring("--only=".length()).split(","));
            } else if (a.startsWith("--results=")) {
                results = Path.of(a.substring("--results=".length()));
            } else {
                System.err.println("usage: compare.sh [--repeats=N] [--only=17-platform,25-platform,25-virtual] "
                        + "[--results=DIR]; unknown argument " + a);
                System.exit(2);
            }
        }
        List<Configuration> matrix = matrix(only);
        WhatChangedScenario scenario = new WhatChangedScenario(WhatChangedScenario.Settings.standard()
                .withCalmProfiles(2));
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path work = Path.of("benchmarks", "target", "compare-work", stamp);
        Files.createDirectories(work);
        long t0 = System.nanoTime();
        List<Run> runs = new ArrayList<>();
        for (int r = 1; r <= repeats; r++) { // round-robin: a slow spell of the machine hits every configuration
            for (Configuration c : matrix) {
                runs.add(run(c, r, scenario, work));
            }
        }
        String md = report(runs, matrix, repeats, scenario.settings(), stamp, (System.nanoTime() - t0) / 60e9,
                String.join(" ", args));
        Files.createDirectories(results);
        Path out = results.resolve(stamp + "-compare.md");
        Files.writeString(out, md, StandardCharsets.UTF_8);
        System.out.println(md);
        System.out.println("[compare] results written to " + out.toAbsolutePath() + " (application logs: "
                + work.toAbsolutePath() + ")");
    }

    private static Run run(Configuration c, int number, WhatChangedScenario scenario, Path work)
            throws IOException, InterruptedException {
        System.out.printf("[compare] %s, run %d%n", c.id(), number);
        OrbitLedgerProcess app = null;
        try {
            app = OrbitLedgerProcess.start(c.javaHome(), c.feature(), c.virtualThreads(), scenario.settings());
            WhatChangedScenario.Outcome outcome = scenario.run(app.base());
            List<String> failures = WhatChangedChecks.failures(outcome, scenario.settings());
            System.out.printf("[compare] %s, run %d: %s%n", c.id(), number,
                    failures.isEmpty() ? "passed" : "FAILED " + failures);
            return new Run(c, number, outcome, failures);
        } catch (RuntimeException | IOException e) {
            System.out.printf("[compare] %s, run %d: did not finish: %s%n", c.id(), number, e.getMessage());
            return new Run(c, number, null, List.of("did not finish: " + e.getMessage()));
        } finally {
            if (app != null) {
                app.close();
                Files.writeString(work.resolve(c.id() + "-" + number + ".log"), app.output(), StandardCharsets.UTF_8);
            }
        }
    }

    private static List<Configuration> matrix(List<String> only) throws IOException {
        List<Configuration> all = new ArrayList<>();
        List<Path> homes = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"))));
        Path jdk25 = Path.of(System.getenv().getOrDefault("JDK25_HOME", JDK25_DEFAULT));
        if (Files.isExecutable(jdk25.resolve("bin").resolve("java"))) {
            homes.add(jdk25);
        } else {
            System.out.println("[compare] no JDK 25 at " + jdk25 + " (set JDK25_HOME): JDK 17 only");
        }
        Map<Integer, Path> byFeature = new TreeMap<>();
        for (Path home : homes) {
            byFeature.putIfAbsent(feature(home), home);
        }
        byFeature.forEach((feature, home) -> {
            all.add(new Configuration(home, feature, false));
            if (feature >= 21) {
                all.add(new Configuration(home, feature, true));
            }
        });
        if (only == null) {
            return all;
        }
        List<Configuration> chosen = all.stream().filter(c -> only.contains(c.id())).toList();
        if (chosen.size() != only.size()) {
            throw new IllegalArgumentException("--only=" + String.join(",", only) + ": the configurations here are "
                    + all.stream().map(Configuration::id).collect(Collectors.joining(", ")));
        }
        return chosen;
    }

    /** The feature release of the JDK at {@code home}, from its {@code release} file. */
    private static int feature(Path home) throws IOException {
        for (String line : Files.readAllLines(home.resolve("release"))) {
            if (line.startsWith("JAVA_VERSION=")) {
                String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                return Integer.parseInt(v.split("[.+-]")[0]);
            }
        }
        throw new IOException("no JAVA_VERSION in " + home.resolve("release"));
    }

    private static String report(List<Run> runs, List<Configuration> matrix, int repeats,
            WhatChangedScenario.Settings s, String stamp, double minutes, String args) {
        StringBuilder md = new StringBuilder();
        md.append("# What changed, judged from outside (").append(stamp).append(")\n\n");
        md.append(String.format(Locale.ROOT, "Command: `benchmarks/compare.sh %s` (%.0f minutes, %d CPUs, commit %s)."
                + " Each run: a fresh `OrbitLedgerApplication` under open-loop load (`OpenLoopLoad`), calm at "
                + "%.0f/s `GET /orbit` (%d ms CPU each) and %.0f/s `GET /ledger?cost=1` (%d ms); the profiler's own "
                + "%ds reference of normal (start-up grace %ds); a calm profile; (a) `/orbit` at %dx the rate; "
                + "(b) calm rates, `/ledger` at %dx the cost; a calm profile again. Each profile %ds on demand, "
                + "read as JSON (`comparison`) and judged by `WhatChangedChecks` (ratios within %.0f%% of the truth, "
                + "the verdicts, `LedgerKernel.sum` first of the methods in (b)). Ratios: median [min, max] over "
                + "the runs.%n%n", args, minutes, Runtime.getRuntime().availableProcessors(), System.getProperty("compare.commit", "unknown"),
                s.orbitPerSecond(), OrbitLedgerController.ORBIT_MILLIS, s.ledgerPerSecond(),
                OrbitLedgerController.LEDGER_MILLIS, s.reference().toSeconds(), s.startupGrace().toSeconds(),
                s.trafficFactor(), s.costFactor(), s.profile().toSeconds(), WhatChangedChecks.WITHIN * 100));

        md.append("## The issue's checks\n\n| configuration | engine | runs passed | (a) /orbit rate ratio (")
                .append(s.trafficFactor()).append(") | (a) /orbit cost ratio (1) | (a) /orbit verdict | (a) /ledger "
                        + "verdict | (b) /ledger cost ratio (").append(s.costFactor())
                .append(") | (b) /ledger rate ratio (1) | (b) /ledger verdict | (b) /orbit verdict | (b) first "
                        + "method |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Configuration c : matrix) {
            List<Run> mine = runs.stream().filter(r -> r.configuration().equals(c)).toList();
            List<WhatChangedScenario.Outcome> done = mine.stream().map(Run::outcome).filter(Objects::nonNull)
                    .toList();
            List<Observation> a = done.stream().map(WhatChangedScenario.Outcome::traffic).toList();
            List<Observation> b = done.stream().map(WhatChangedScenario.Outcome::cost).toList();
            md.append("| ").append(c.id()).append(" | ")
                    .append(tally(a, Observation::engine)).append(" | ")
                    .append(mine.stream().filter(r -> r.failures().isEmpty()).count()).append(" of ")
                    .append(mine.size()).append(retried(done)).append(" | ")
                    .append(spread(a, Endpoint.ORBIT, Observation.Figures::rateRatio)).append(" | ")
                    .append(spread(a, Endpoint.ORBIT, Observation.Figures::costRatio)).append(" | ")
                    .append(tally(a, o -> o.of(Endpoint.ORBIT).verdict())).append(" | ")
                    .append(tally(a, o -> o.of(Endpoint.LEDGER).verdict())).append(" | ")
                    .append(spread(b, Endpoint.LEDGER, Observation.Figures::costRatio)).append(" | ")
                    .append(spread(b, Endpoint.LEDGER, Observation.Figures::rateRatio)).append(" | ")
                    .append(tally(b, o -> o.of(Endpoint.LEDGER).verdict())).append(" | ")
                    .append(tally(b, o -> o.of(Endpoint.ORBIT).verdict())).append(" | ")
                    .append(tally(b, o -> o.firstMethod() == null ? null
                            : o.firstMethod().substring(o.firstMethod().lastIndexOf('.', o.firstMethod()
                                    .lastIndexOf('.') - 1) + 1))).append(" |\n");
        }

        md.append("\n## The noise floor: calm profiles (nothing changed)\n\nThe same comparison of a calm profile "
                + "with the reference, right after it and at the end of each run; every ratio's truth is 1.\n\n"
                + "| configuration | /orbit rate ratio | /orbit cost ratio | /ledger rate ratio | /ledger cost ratio | "
                + "verdicts |\n|---|---|---|---|---|---|\n");
        for (Configuration c : matrix) {
            List<Observation> calm = runs.stream().filter(r -> r.configuration().equals(c))
                    .map(Run::outcome).filter(Objects::nonNull).flatMap(o -> o.calm().stream()).toList();
            md.append("| ").append(c.id()).append(" | ")
                    .append(spread(calm, Endpoint.ORBIT, Observation.Figures::rateRatio)).append(" | ")
                    .append(spread(calm, Endpoint.ORBIT, Observation.Figures::costRatio)).append(" | ")
                    .append(spread(calm, Endpoint.LEDGER, Observation.Figures::rateRatio)).append(" | ")
                    .append(spread(calm, Endpoint.LEDGER, Observation.Figures::costRatio)).append(" | ")
                    .append(tally(calm.stream().flatMap(o -> o.endpoints().values().stream()).toList(),
                            Observation.Figures::verdict)).append(" |\n");
        }

        md.append("\n## CPU per request: the profiler's against the application's own measure\n\nThe profile's "
                + "`cpuPerRequestMillis.profile` over the CPU the kernels burned per request meanwhile (thread CPU "
                + "clock, `GET /tally`); the profiler also counts the request's own overhead around the kernel.\n\n"
                + "| configuration | calm /orbit | calm /ledger | (a) /orbit | (b) /ledger |\n|---|---|---|---|---|\n");
        for (Configuration c : matrix) {
            List<WhatChangedScenario.Outcome> done = runs.stream().filter(r -> r.configuration().equals(c))
                    .map(Run::outcome).filter(Objects::nonNull).toList();
            List<Observation> calm = done.stream().flatMap(o -> o.calm().stream()).toList();
            md.append("| ").append(c.id()).append(" | ")
                    .append(spread(calm, Endpoint.ORBIT, WhatChangedBenchmark::accuracy)).append(" | ")
                    .append(spread(calm, Endpoint.LEDGER, WhatChangedBenchmark::accuracy)).append(" | ")
                    .append(spread(done.stream().map(WhatChangedScenario.Outcome::traffic).toList(), Endpoint.ORBIT,
                            WhatChangedBenchmark::accuracy)).append(" | ")
                    .append(spread(done.stream().map(WhatChangedScenario.Outcome::cost).toList(), Endpoint.LEDGER,
                            WhatChangedBenchmark::accuracy)).append(" |\n");
        }

        List<String> retries = new ArrayList<>();
        for (Run r : runs) {
            if (r.outcome() != null) {
                observations(r.outcome()).forEach(o -> o.retried().forEach(why -> retries.add(
                        r.configuration().id() + ", run " + r.number() + ", " + why)));
            }
        }
        if (!retries.isEmpty()) {
            md.append("\n## Profiles recorded again\n\nA profile whose load or application did not keep the plan is no "
                    + "fair test and is recorded again (at most " + WhatChangedScenario.ATTEMPTS + " times):\n\n");
            retries.forEach(why -> md.append("- ").append(why.replace("|", "\\|")).append('\n'));
        }

        List<Run> failed = runs.stream().filter(r -> !r.failures().isEmpty()).toList();
        if (!failed.isEmpty()) {
            md.append("\n## Failed checks\n\n");
            for (Run r : failed) {
                md.append("- ").append(r.configuration().id()).append(", run ").append(r.number()).append(": ")
                        .append(String.join("; ", r.failures()).replace("|", "\\|")).append('\n');
            }
        }
        md.append('\n');
        return md.toString();
    }

    private static List<Observation> observations(WhatChangedScenario.Outcome o) {
        List<Observation> all = new ArrayList<>(o.calm());
        all.add(o.traffic());
        all.add(o.cost());
        return all;
    }

    /** {@code ""}, or how many profiles of these runs were recorded again, e.g. {@code " (2 profiles again)"}. */
    private static String retried(List<WhatChangedScenario.Outcome> outcomes) {
        long n = outcomes.stream().flatMap(o -> observations(o).stream()).mapToLong(o -> o.retried().size()).sum();
        return n == 0 ? "" : " (" + n + " profile" + (n == 1 ? "" : "s") + " again)";
    }

    private static Double accuracy(Observation.Figures f) {
        return f.costMillis() == null || !(f.measuredCostMillis() > 0) ? null
                : f.costMillis() / f.measuredCostMillis();
    }

    /** {@code median [min, max]} of one figure over observations; {@code –} when none has it. */
    private static String spread(List<Observation> observations, Endpoint e,
            Function<Observation.Figures, Double> figure) {
        List<Double> values = new ArrayList<>();
        for (Observation o : observations) {
            Double v = figure.apply(o.of(e));
            if (v != null && !v.isNaN()) {
                values.add(v);
            }
        }
        if (values.isEmpty()) {
            return "–";
        }
        Collections.sort(values);
        int n = values.size();
        double median = n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
        return String.format(Locale.ROOT, "%.2f [%.2f, %.2f]", median, values.get(0), values.get(n - 1));
    }

    /** How often each value occurs, e.g. {@code TRAFFIC 5} or {@code UNCHANGED 4, COST 1}. */
    private static <T> String tally(List<T> items, Function<T, String> value) {
        if (items.isEmpty()) {
            return "–";
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (T item : items) {
            counts.merge(Objects.toString(value.apply(item), "none"), 1, Integer::sum);
        }
        return counts.entrySet().stream().map(en -> en.getKey() + " " + en.getValue())
                .collect(Collectors.joining(", "));
    }
}
