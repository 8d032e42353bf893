package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.CpuProfilerOptions;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/** Reads the pipeline's current state into the status the endpoint shows. */
final class StatusReader {

    private static final int TOP_THREADS = 10;

    private final Pipeline p;

    StatusReader(Pipeline pipeline) {
        this.p = pipeline;
    }

    CpuProfilerStatus read() {
        CpuProfilerOptions options = p.options();
        double latest = p.sampler().latestPercent();
        OptionalDouble avg = p.baseline().average();
        CpuProfilerStatus.Cpu cpu = new CpuProfilerStatus.Cpu(p.cpuSource().source().kind().id(), p.cpuSource().cgroupPath(),
                p.cpuSource().effectiveCpus().count(), p.cpuSource().effectiveCpus().origin(),
                Double.isNaN(latest) ? null : latest, avg.isPresent() ? avg.getAsDouble() : null,
                options.getThreshold(), p.cpuSource().fallbackReason());
        Instant graceUntil = p.policy().graceUntil().orElse(null);
        CpuProfilerStatus.Trigger trigger = new CpuProfilerStatus.Trigger(options.isEnabled(), options.getCooldown(),
                p.policy().cooldownUntil().orElse(null), p.policy().cooldownRemaining().orElse(null), graceUntil,
                graceUntil == null ? null : Duration.between(p.clock().instant(), graceUntil));
        CpuProfilerStatus.Session session = p.policy().activeSession().map(s -> CpuProfilerStatus.Session.of(s, p.clock())).orElse(null);
        return new CpuProfilerStatus(p.policy().state(), cpu, trigger, session, p.profiles().latest().orElse(null),
                p.threads() == null ? List.of() : p.threads().top(TOP_THREADS), p.lookback().status(), disk());
    }

    /** The free space where the profiler writes: a few statvfs calls, cheap enough for every status request. */
    private CpuProfilerStatus.Disk disk() {
        List<CpuProfilerStatus.Disk.Place> places = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        addPlace(places, problems, "jfr-repository", p.diskSpace().jfrRepository(), "JFR's repository");
        addPlace(places, problems, "work-directory", p.workDirectory().path(), "the profiler's work directory");
        Path output = p.options().getOutputDirectory();
        if (output != null) {
            addPlace(places, problems, "output-directory", output, "profiler.cpu.output-directory");
        }
        return new CpuProfilerStatus.Disk(places, problems.isEmpty() ? null : problems.get(0));
    }

    private void addPlace(List<CpuProfilerStatus.Disk.Place> places, List<String> problems, String role, Path path, String what) {
        p.diskSpace().check(path).ifPresent(c -> {
            places.add(new CpuProfilerStatus.Disk.Place(role, path.toString(), c.usableBytes(), c.floorBytes(), c.writable()));
            if (!c.ok()) {
                problems.add(c.describe(what));
            }
        });
    }
}
