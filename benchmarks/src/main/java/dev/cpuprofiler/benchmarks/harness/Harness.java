package dev.cpuprofiler.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The benchmark harness: JMH micro-benchmarks, whole-process overhead, idle monitoring cost, CPU% fidelity,
 * attribution and detection latency, each in child processes on loopback; then one Markdown results table.
 * Started by {@code benchmarks/run.sh [--quick] [--only=section,...]}.
 *
 * <pre>
 * --quick                 about 15-19 minutes instead of 45-50 (one measurement each, shorter phases)
 * --only=a,b              sections: jmh, overhead, idle, fidelity, attribution, endpoints, detection, peers, soak
 * --only=peers            the starter against Pyroscope's agent, async-profiler's agent and JFR (about 20 min, quick 7)
 * --repeats=N             overhead measurements per JVM / sessions per session JVM (default 3, quick 1)
 * --results=DIR           where the Markdown goes (default benchmarks/results)
 * --only=soak             the soak (not part of a default run): memory, threads, files over 30 minutes (quick 3)
 * --soak-minutes=N        how long the soak measures
 * --soak-apps=a,b         which apps it soaks: jfr-execution, async-profiler (default both), jfr-cpu-time (JDK 25)
 * </pre>
 */
public final class Harness {

    /** Every section, in the order they run. */
    static final List<String> SECTIONS = List.of("jmh", "overhead", "idle", "fidelity", "attribution", "endpoints",
            "detection", "peers", "soak");
    /** What a run without {@code --only} does: everything but the soak, which takes half an hour by itself. */
    static final List<String> DEFAULT_SECTIONS = SECTIONS.subList(0, SECTIONS.size() - 1);

    private Harness() {
    }

    public static void main(String[] args) throws Exception {
        Settings settings = Settings.full();
        Set<String> only = new LinkedHashSet<>(DEFAULT_SECTIONS);
        Path results = Path.of("benchmarks", "results");
        Integer rounds = null;
        Integer soakMinutes = null;
        List<String> soakApps = SoakSection.DEFAULT_APPS;
        for (String a : args) {
            if (a.equals("--quick")) {
                settings = Settings.quick();
            } else if (a.startsWith("--only=")) {
                only = new LinkedHashSet<>(List.of(a.substring(7).split(",")));
                for (String s : only) {
                    if (!SECTIONS.contains(s)) {
                        usage("unknown section " + s);
                    }
                }
            } else if (a.startsWith("--repeats=")) {
                rounds = Integer.parseInt(a.substring(10));
            } else if (a.startsWith("--results=")) {
                results = Path.of(a.substring(10));
            } else if (a.startsWith("--soak-minutes=")) {
                soakMinutes = Integer.parseInt(a.substring(15));
                if (soakMinutes < 2) {
                    usage("--soak-minutes must be at least 2");
                }
            } else if (a.startsWith("--soak-apps=")) {
                soakApps = List.of(a.substring(12).split(","));
                for (String app : soakApps) {
                    if (!SoakSection.APPS.containsKey(app)) {
                        usage("unknown soak app " + app + " (known: " + String.join(", ", SoakSection.APPS.keySet())
                                + ")");
                    }
                }
            } else {
                usage("unknown argument " + a);
            }
        }
        if (rounds != null) { // --repeats
            settings = settings.withRepeats(rounds);
        }
        if (soakMinutes != null) {
            settings = settings.withSoakMinutes(soakMinutes);
        }
        if (only.contains("soak")) {
            settings = settings.withSoakBudget();
        }
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) {
            System.out.println("[harness] this harness reads /proc and /sys/fs/cgroup: it runs on Linux only");
            System.exit(2);
        }
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path work = Path.of("benchmarks", "target", "bench-work", stamp).toAbsolutePath();
        Files.createDirectories(work);
        Ctx ctx = new Ctx(settings, work);
        String uptimeStart = uptime();
        long t0 = System.nanoTime();
        System.out.printf("[harness] %s run, sections %s, work directory %s, budget %.0f min%n", settings.mode(), only,
                work, settings.budgetMinutes());
        System.out.println("[harness] " + uptimeStart);

        List<String> sectionLoads = new ArrayList<>();
        for (String section : SECTIONS) {
            if (!only.contains(section)) {
                continue;
            }
            if (ctx.remainingSeconds() < 30) {
                ctx.report.problem(section + " skipped: the time budget is used up");
                continue;
            }
            String load = Proc.loadAverage();
            long s0 = System.nanoTime();
            System.out.printf("%n[harness] === %s (load average %s) ===%n", section, load);
            try {
                switch (section) {
                    case "jmh" -> JmhSection.run(ctx);
                    case "overhead" -> OverheadSection.run(ctx);
                    case "idle" -> IdleSection.run(ctx);
                    case "fidelity" -> FidelitySection.run(ctx);
                    case "attribution" -> AttributionSection.run(ctx);
                    case "endpoints" -> EndpointsSection.run(ctx);
                    case "detection" -> DetectionSection.run(ctx);
                    case "peers" -> PeersSection.run(ctx);
                    case "soak" -> SoakSection.run(ctx, soakApps);
                    default -> throw new IllegalStateException(section);
                }
            } catch (Exception e) {
                ctx.report.problem(section + " failed: " + e);
                e.printStackTrace(System.out);
            }
            sectionLoads.add(Proc.fmt("%s: %.1f min, load average before %s", section, (System.nanoTime() - s0) / 60e9,
                    load));
        }
        String uptimeEnd = uptime();
        double minutes = (System.nanoTime() - t0) / 60e9;

        String header = header(ctx, stamp, uptimeStart, uptimeEnd, minutes, sectionLoads, only, args);
        String md = ctx.report.render(header);
        Files.createDirectories(results);
        Path out = results.resolve(stamp + "-" + settings.mode() + ".md");
        Files.writeString(out, md);
        System.out.println();
        System.out.println("================================================================================");
        System.out.println(md);
        System.out.println("[harness] results written to " + out.toAbsolutePath() + " (raw logs: " + work + ")");
    }

    private static void usage(String problem) {
        System.out.println("[harness] " + problem);
        System.out.println("usage: benchmarks/run.sh [--quick] [--only=" + String.join(",", SECTIONS)
                + "] [--repeats=N] [--results=DIR] [--soak-minutes=N] [--soak-apps="
                + String.join(",", SoakSection.APPS.keySet()) + "]");
        System.exit(2);
    }

    private static String header(Ctx ctx, String stamp, String uptimeStart, String uptimeEnd, double minutes,
            List<String> sectionLoads, Set<String> only, String[] args) {
        StringBuilder md = new StringBuilder();
        md.append("# cpuprofiler benchmark results (").append(ctx.settings.mode()).append(" run, ").append(stamp)
                .append(")\n\n");
        md.append("Command: `benchmarks/run.sh").append(ctx.settings.mode().equals("quick") ? " --quick" : "")
                .append(only.equals(new LinkedHashSet<>(DEFAULT_SECTIONS)) ? "" : " --only=" + String.join(",", only))
                .append(java.util.Arrays.stream(args).filter(a -> a.startsWith("--soak-") || a.startsWith("--repeats="))
                        .map(a -> " " + a).collect(java.util.stream.Collectors.joining())).append("`")
                .append(Proc.fmt(" (%.1f min). Method and goals: `BENCHMARKS.md`.%n%n", minutes));
        md.append("| machine | |\n|---|---|\n");
        md.append("| CPU | ").append(cpuModel()).append(", ").append(ctx.cpus).append(" CPUs available |\n");
        md.append("| memory | ").append(memTotal()).append(" |\n");
        md.append("| kernel | ").append(read("/proc/sys/kernel/osrelease")).append(" |\n");
        md.append("| cgroups | ").append(cgroupLayout()).append(" |\n");
        md.append("| JDK (default) | ").append(Jvms.version(ctx.jvms.java)).append(" |\n");
        md.append("| JDK 25 | ").append(ctx.jvms.java25 == null ? ctx.jvms.java25Missing : Jvms.version(ctx.jvms.java25))
                .append(" |\n");
        md.append("| commit | ").append(git()).append(" |\n");
        md.append("| `uptime` at start | ").append(uptimeStart).append(" |\n");
        md.append("| `uptime` at end | ").append(uptimeEnd).append(" |\n");
        md.append("| sections | ").append(String.join("; ", sectionLoads)).append(" |\n\n");
        md.append("The load average counts every runnable process, the harness's own included; the per-measurement "
                + "\"others' CPU\" columns below separate what other processes used.\n\n");
        return md.toString();
    }

    static String uptime() {
        try {
            Process p = new ProcessBuilder("uptime").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            return out;
        } catch (Exception e) {
            return "load average: " + Proc.loadAverage();
        }
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("?");
        } catch (IOException e) {
            return "?";
        }
    }

    private static String memTotal() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal"))
                    .map(l -> Proc.fmt("%.1f GB", Long.parseLong(l.replaceAll("\\D", "")) / 1e6)).findFirst()
                    .orElse("?");
        } catch (IOException e) {
            return "?";
        }
    }

    private static String cgroupLayout() {
        boolean v1 = Files.isRegularFile(Path.of("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"));
        boolean v2 = Files.isRegularFile(Path.of("/sys/fs/cgroup/cgroup.controllers"));
        boolean hybrid = Files.isDirectory(Path.of("/sys/fs/cgroup/unified"));
        return v1 ? "v1 (cpu, cpuacct)" + (hybrid ? " with a v2 hierarchy at /sys/fs/cgroup/unified" : "")
                : v2 ? "v2" : "none found";
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file)).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    private static String git() {
        try {
            Process p = new ProcessBuilder("git", "log", "-1", "--format=%h %s").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            Process d = new ProcessBuilder("git", "status", "--porcelain", "--untracked-files=no").redirectErrorStream(true).start();
            String dirty = new String(d.getInputStream().readAllBytes()).trim();
            p.waitFor();
            d.waitFor();
            return out.replace("|", "\\|") + (dirty.isEmpty() ? "" : " (with uncommitted changes)");
        } catch (Exception e) {
            return "?";
        }
    }
}
