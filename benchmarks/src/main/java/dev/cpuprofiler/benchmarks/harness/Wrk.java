package dev.cpuprofiler.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Finds or installs wrk, runs it against a loopback URL and parses its report. */
final class Wrk {

    record Result(double requestsPerSecond, double p50Millis, double p99Millis, long requests, long errors,
            long wrkCpuNanos) {
    }

    private static final Pattern PERCENTILE = Pattern.compile("^\\s*(50|99)(?:\\.0+)?%\\s+([0-9.]+)(us|ms|s|m)\\s*$");
    private static final Pattern RPS = Pattern.compile("^Requests/sec:\\s+([0-9.]+)");
    private static final Pattern REQUESTS = Pattern.compile("^\\s*(\\d+) requests in");
    private static final Pattern SOCKET_ERRORS = Pattern.compile(
            "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");

    private Wrk() {
    }

    /** The wrk binary, installing it with apt-get when missing and allowed; null (with the reason printed) if none. */
    static String ensure(Path work, StringBuilder why) throws InterruptedException {
        String found = which("wrk");
        if (found != null) {
            return found;
        }
        if (which("apt-get") == null) {
            why.append("wrk is not installed and there is no apt-get to install it");
            return null;
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            why.append("wrk is not installed and installing it needs root (run: apt-get install -y wrk)");
            return null;
        }
        System.out.println("[harness] wrk not found: apt-get update && apt-get install -y wrk");
        try {
            Path log = work.resolve("apt-get-wrk.log");
            int rc = run(List.of("sh", "-c", "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y wrk"),
                    log, 300);
            found = which("wrk");
            if (found == null) {
                why.append("apt-get install -y wrk failed (exit ").append(rc).append("; see ").append(log).append(')');
            }
            return found;
        } catch (IOException e) {
            why.append("cannot run apt-get: ").append(e.getMessage());
            return null;
        }
    }

    static String which(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    private static int run(List<String> command, Path log, long timeoutSeconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    /**
     * {@code wrk -t1 -c<connections> -d<seconds>s --latency}: one load thread, so it takes at most one core. Run
     * under {@code sh}, which prints its children's CPU time (cutime + cstime) after wrk ends: wrk's own CPU.
     */
    static Result run(String wrk, String url, int connections, double seconds, Path log)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c",
                "\"$0\" \"$@\"; rc=$?; echo \"SHSTAT $(cat /proc/$$/stat)\"; exit $rc", wrk, "-t1",
                "-c" + connections, "-d" + Math.max(1, Math.round(seconds)) + "s", "--latency", "--timeout", "10s", url));
        try (Child c = Child.start("wrk", cmd, log)) {
            int rc = c.await(seconds + 30);
            if (rc != 0) {
                throw new IOException("wrk failed (exit " + rc + "): " + c.tail(10));
            }
        }
        return parse(Files.readAllLines(log));
    }

    static Result parse(List<String> lines) throws IOException {
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        double rps = Double.NaN;
        long requests = 0;
        long errors = 0;
        long cpu = -1;
        for (String line : lines) {
            Matcher m = PERCENTILE.matcher(line);
            if (m.matches()) {
                double v = Double.parseDouble(m.group(2)) * switch (m.group(3)) {
                    case "us" -> 0.001;
                    case "ms" -> 1;
                    case "s" -> 1000;
                    default -> 60_000;
                };
                if (m.group(1).equals("50")) {
                    p50 = v;
                } else {
                    p99 = v;
                }
            }
            m = RPS.matcher(line);
            if (m.find()) {
                rps = Double.parseDouble(m.group(1));
            }
            m = REQUESTS.matcher(line);
            if (m.find()) {
                requests = Long.parseLong(m.group(1));
            }
            m = SOCKET_ERRORS.matcher(line);
            if (m.find()) {
                for (int g = 1; g <= 4; g++) {
                    errors += Long.parseLong(m.group(g));
                }
            }
            m = NON_2XX.matcher(line);
            if (m.find()) {
                errors += Long.parseLong(m.group(1));
            }
            if (line.startsWith("SHSTAT ")) {
                cpu = Proc.childrenCpuNanos(line.substring(7));
            }
        }
        if (Double.isNaN(rps) || Double.isNaN(p99)) {
            throw new IOException("cannot parse wrk output: " + String.join(" | ", lines));
        }
        return new Result(rps, p50, p99, requests, errors, cpu);
    }
}
