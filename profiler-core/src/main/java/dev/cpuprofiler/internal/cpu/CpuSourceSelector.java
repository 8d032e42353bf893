package dev.cpuprofiler.internal.cpu;

import dev.cpuprofiler.internal.cpu.CgroupDirectory.Version;
import dev.cpuprofiler.CpuSourceMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Picks the CPU counter for {@code profiler.cpu.source} and the CPU count a percentage is relative to.
 * <ul>
 * <li>{@code auto}: the process's cgroup when it sits in one of its own whose counter is readable, else the process's
 * CPU time. The root cgroup's counters are the whole machine's, so a process there is measured by itself.</li>
 * <li>{@code cgroup}: the process's cgroup even if it is the root; the process's CPU time, with a reason, if none is
 * readable.</li>
 * <li>{@code process}: the process's CPU time.</li>
 * </ul>
 * The counter is read once here, so an unreadable one is caught at startup rather than on every tick.
 */
public final class CpuSourceSelector {

    private static final Logger log = LoggerFactory.getLogger(CpuSourceSelector.class);

    private final Path fsRoot;
    private final LongSupplier processCpuTimeNanos;
    private final CgroupDiscovery discovery;
    private final EffectiveCpuCountResolver cpuCountResolver;

    /** Production wiring: the platform MXBean's process CPU time and {@code Runtime.availableProcessors()}. */
    public CpuSourceSelector(Path fsRoot) {
        this(fsRoot, ProcessCpuSource.platformProcessCpuTime(), Runtime.getRuntime()::availableProcessors);
    }

    /**
     * @param fsRoot {@code /} in production; tests point it at a fake tree
     * @param processCpuTimeNanos the process's CPU time in ns (negative: unsupported)
     * @param availableProcessors last-resort CPU count when the CPU affinity cannot be read
     */
    public CpuSourceSelector(Path fsRoot, LongSupplier processCpuTimeNanos, IntSupplier availableProcessors) {
        this.fsRoot = Objects.requireNonNull(fsRoot, "fsRoot");
        this.processCpuTimeNanos = Objects.requireNonNull(processCpuTimeNanos, "processCpuTimeNanos");
        this.discovery = new CgroupDiscovery(fsRoot);
        this.cpuCountResolver = new EffectiveCpuCountResolver(fsRoot, availableProcessors);
    }

    public Selected select(CpuSourceMode mode) {
        Objects.requireNonNull(mode, "mode");
        CgroupDiscovery.Layout layout = null;
        String noLayoutReason = null;
        try {
            layout = discovery.discover();
        } catch (IOException e) {
            noLayoutReason = e.getMessage();
            log.debug("Cannot discover the process's cgroup: {}", noLayoutReason);
        }
        EffectiveCpuCount cpus = cpuCountResolver.resolve(layout);

        if (mode == CpuSourceMode.PROCESS) {
            log.debug("Using process CPU time ({}), as profiler.cpu.source=process", ProcessCpuSource.MXBEAN_DESCRIPTION);
            return process(cpus, null);
        }
        if (layout == null) {
            return fallBack(cpus, noLayoutReason);
        }
        CgroupDirectory usage = layout.usageDirectory().orElse(null);
        if (usage == null) {
            return fallBack(cpus, "no cgroup v1 cpuacct or cgroup v2 hierarchy is mounted for this process");
        }
        if (mode == CpuSourceMode.AUTO && isHostRoot(usage)) {
            return fallBack(cpus, "the process is in the root of the " + usage.version().label() + " hierarchy (/) at "
                    + usage.path() + ", whose counters are the whole machine's");
        }
        CpuUsageSource source = usage.version() == Version.V1
                ? CgroupCpuSource.v1(CgroupDirectory.resolve(fsRoot, usage.path()))
                : CgroupCpuSource.v2(CgroupDirectory.resolve(fsRoot, usage.path()));
        try {
            source.cpuTimeNanos();
        } catch (IOException e) {
            source.close();
            return fallBack(cpus, e.getMessage());
        }
        log.debug("Using {} CPU metrics from {}", usage.version().label(), usage.path());
        return new Selected(source, cpus, usage.path(), null);
    }

    /**
     * Whether the process's cgroup is the machine's root rather than one of its own. A path other than {@code /} is
     * its own; {@code /} is also its own inside a cgroup namespace, recognised by files the kernel never puts in a
     * hierarchy's real root (v2: {@code cgroup.type}, {@code cpu.max}) or only puts there (v1: {@code release_agent},
     * {@code cgroup.sane_behavior}).
     */
    private boolean isHostRoot(CgroupDirectory cgroup) {
        if (!cgroup.isNamespaceRoot()) {
            return false;
        }
        Path dir = CgroupDirectory.resolve(fsRoot, cgroup.path());
        if (cgroup.version() == Version.V2) {
            return !Files.exists(dir.resolve("cgroup.type")) && !Files.exists(dir.resolve("cpu.max"));
        }
        return Files.exists(dir.resolve("release_agent")) || Files.exists(dir.resolve("cgroup.sane_behavior"));
    }

    private Selected fallBack(EffectiveCpuCount cpus, String reason) {
        log.debug("No cgroup CPU stats found, falling back to process CPU time: {}", reason);
        return process(cpus, reason);
    }

    private Selected process(EffectiveCpuCount cpus, String fallbackReason) {
        ProcessCpuSource source = new ProcessCpuSource(processCpuTimeNanos, ProcessCpuSource.MXBEAN_DESCRIPTION);
        try {
            source.cpuTimeNanos();
        } catch (IOException e) {
            // Nothing left to fall back to: keep it, the sampler logs each failed read.
            log.debug("Process CPU time is not readable either: {}", e.getMessage());
        }
        return new Selected(source, cpus, null, fallbackReason);
    }

    /**
     * What the selector chose.
     *
     * @param source the counter to sample; the caller owns it and closes it
     * @param effectiveCpus what a CPU percentage is relative to (the cgroup quota whenever one is discoverable)
     * @param cgroupPath the cgroup directory whose counter is used, as the process sees it (e.g.
     *        {@code /sys/fs/cgroup/cpuacct/kubepods/pod1}); {@code null} when the source is the process
     * @param fallbackReason why the process's CPU time is used although {@code auto} or {@code cgroup} was asked for;
     *        {@code null} when nothing fell back
     */
    public record Selected(CpuUsageSource source, EffectiveCpuCount effectiveCpus, String cgroupPath,
            String fallbackReason) {
    }
}
