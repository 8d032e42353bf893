package dev.cpuprofiler.internal.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A container as the process sees it in a cgroup namespace, under a test's root: its own cgroup is "/", cgroup v2
 * mounted at /sys/fs/cgroup, a {@code cpu.max} quota and a CPU counter ({@code cpu.stat}) the test moves on.
 */
public final class FakeCgroupV2Container {

    private final Path root;

    private FakeCgroupV2Container(Path root) {
        this.root = root;
    }

    /**
     * @param cpuMax the {@code cpu.max} line, e.g. {@code "150000 100000"} (1.5 CPUs) or {@code "max 100000"}
     * @param cpusAllowed the affinity list, e.g. {@code "0-3"}
     */
    public static FakeCgroupV2Container create(Path root, String cpuMax, String cpusAllowed) {
        FakeCgroupV2Container c = new FakeCgroupV2Container(root);
        c.write("proc/self/cgroup", "0::/\n");
        c.write("proc/self/mountinfo", "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n");
        c.write("proc/self/status", "Name:\tjava\nCpus_allowed_list:\t" + cpusAllowed + "\n");
        c.write("sys/fs/cgroup/cgroup.type", "domain\n");
        c.write("sys/fs/cgroup/cpu.max", cpuMax + "\n");
        c.usage(0);
        return c;
    }

    /**
     * Sets the container's CPU time so far. Rewrites cpu.stat in place with fixed-width numbers, in one write and
     * without truncating: the source keeps the file open, as it does the kernel's, and must never catch it empty (a
     * failed read while the profiler is built makes it fall back to the process's own CPU).
     */
    public void usage(long usageUsec) {
        String n = String.format("%015d", usageUsec);
        byte[] content = ("usage_usec " + n + "\nuser_usec " + n
                + "\nsystem_usec 0\nnr_periods 0\nnr_throttled 0\nthrottled_usec 0\n")
                .getBytes(StandardCharsets.US_ASCII);
        Path p = root.resolve("sys/fs/cgroup/cpu.stat");
        try {
            Files.createDirectories(p.getParent());
            try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(content), 0);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(String relative, String content) {
        Path p = root.resolve(relative);
        try {
            Files.createDirectories(p.getParent());
            Files.writeString(p, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
