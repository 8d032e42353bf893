package dev.cpuprofiler.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A real cgroup with a CPU quota, for the duration of one child: cgroup v1 ({@code cpu} and {@code cpuacct}
 * hierarchies, mounted apart or together) or v2 ({@code cpu.max}). The child is started inside it (a shell writes
 * its own pid into {@code cgroup.procs}, then execs the JVM), as a container runtime would. Removed on close, and by
 * a shutdown hook if the harness is interrupted.
 */
final class QuotaCgroup implements AutoCloseable {

    private static final Path ROOT = Path.of("/sys/fs/cgroup");
    private static final Set<QuotaCgroup> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(QuotaCgroup::close), "harness-cgroup-cleanup"));
    }

    private final List<Path> dirs;
    private final Path usageFile;
    final String version;
    final String description;

    private QuotaCgroup(List<Path> dirs, Path usageFile, String version, String description) {
        this.dirs = dirs;
        this.usageFile = usageFile;
        this.version = version;
        this.description = description;
        LIVE.add(this);
    }

    /** Creates the cgroup, or throws with the reason it cannot be made here. */
    static QuotaCgroup create(String name, double cpus) throws IOException {
        Path v1cpu = ROOT.resolve("cpu");
        Path v1acct = ROOT.resolve("cpuacct");
        if (Files.isRegularFile(v1cpu.resolve("cpu.cfs_quota_us")) && Files.isRegularFile(v1acct.resolve("cpuacct.usage"))) {
            List<Path> made = new ArrayList<>();
            try {
                Path cpuDir = Files.createDirectory(v1cpu.resolve(name));
                made.add(cpuDir);
                Path acctDir = v1acct.resolve(name);
                if (!Files.isDirectory(acctDir)) { // the same directory when cpu and cpuacct are mounted together
                    made.add(Files.createDirectory(acctDir));
                }
                long period = Long.parseLong(Files.readString(cpuDir.resolve("cpu.cfs_period_us")).trim());
                long quota = Math.round(cpus * period);
                Files.writeString(cpuDir.resolve("cpu.cfs_quota_us"), Long.toString(quota));
                return new QuotaCgroup(made, acctDir.resolve("cpuacct.usage"), "v1",
                        "cgroup v1 " + cpuDir + " (cpu.cfs_quota_us=" + quota + ", cpu.cfs_period_us=" + period
                                + ") + " + acctDir);
            } catch (IOException | RuntimeException e) {
                removeAll(made);
                throw new IOException("cannot create a cgroup v1 with a quota under " + ROOT + ": " + e, e);
            }
        }
        Path controllers = ROOT.resolve("cgroup.controllers");
        if (Files.isRegularFile(controllers) && Files.readString(controllers).contains("cpu")) {
            List<Path> made = new ArrayList<>();
            try {
                Path subtree = ROOT.resolve("cgroup.subtree_control");
                if (!Files.readString(subtree).contains("cpu")) {
                    Files.writeString(subtree, "+cpu");
                }
                Path dir = Files.createDirectory(ROOT.resolve(name));
                made.add(dir);
                long period = 100_000;
                long quota = Math.round(cpus * period);
                Files.writeString(dir.resolve("cpu.max"), quota + " " + period);
                return new QuotaCgroup(made, dir.resolve("cpu.stat"), "v2",
                        "cgroup v2 " + dir + " (cpu.max=\"" + quota + " " + period + "\")");
            } catch (IOException | RuntimeException e) {
                removeAll(made);
                throw new IOException("cannot create a cgroup v2 with a quota under " + ROOT + ": " + e, e);
            }
        }
        throw new IOException("no cgroup v1 cpu/cpuacct hierarchy and no cgroup v2 cpu controller under " + ROOT);
    }

    /** The command, started inside this cgroup. */
    List<String> wrap(List<String> command) {
        StringBuilder script = new StringBuilder();
        for (Path d : dirs) {
            script.append("echo $$ > ").append(d.resolve("cgroup.procs")).append(" && ");
        }
        script.append("exec \"$@\"");
        List<String> out = new ArrayList<>(List.of("sh", "-c", script.toString(), "sh"));
        out.addAll(command);
        return out;
    }

    /** cpuacct.usage (v1, ns) or cpu.stat (v2, usage_usec). */
    Path usageFile() {
        return usageFile;
    }

    @Override
    public void close() {
        removeAll(dirs);
        LIVE.remove(this);
    }

    private static void removeAll(List<Path> dirs) {
        for (Path d : dirs) {
            for (int attempt = 0; attempt < 50 && Files.exists(d); attempt++) {
                try {
                    Files.delete(d); // rmdir: only works once the processes in it have ended
                } catch (IOException e) {
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
            if (Files.exists(d)) {
                System.out.println("[harness] WARNING: could not remove " + d + " (remove it with rmdir)");
            }
        }
    }
}
