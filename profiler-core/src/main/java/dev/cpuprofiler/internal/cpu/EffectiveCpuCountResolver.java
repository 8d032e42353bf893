package dev.cpuprofiler.internal.cpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many CPUs the process can use: the tightest cgroup quota (kept fractional) but never more than the CPUs it may
 * run on ({@code Cpus_allowed_list}). {@code Runtime.availableProcessors()} is only a last resort when the affinity is
 * unreadable, because it rounds a 1.5-CPU quota up to 2.
 */
final class EffectiveCpuCountResolver {

    private static final Logger log = LoggerFactory.getLogger(EffectiveCpuCountResolver.class);

    private final Path fsRoot;
    private final CpuQuotaReader quotaReader;
    private final IntSupplier availableProcessors;

    /**
     * @param fsRoot {@code /} in production
     * @param availableProcessors fallback when {@code Cpus_allowed_list} cannot be read, normally
     *        {@code Runtime.getRuntime()::availableProcessors}
     */
    public EffectiveCpuCountResolver(Path fsRoot, IntSupplier availableProcessors) {
        this.fsRoot = fsRoot;
        this.quotaReader = new CpuQuotaReader(fsRoot);
        this.availableProcessors = availableProcessors;
    }

    /** @param layout the process's cgroups, or null when none could be discovered */
    public EffectiveCpuCount resolve(CgroupLayout layout) {
        Optional<CpuQuota> quota = layout == null
                ? Optional.empty()
                : layout.quotaDirectory().flatMap(quotaReader::tightest);
        EffectiveCpuCount affinity = affinity();
        if (quota.isPresent() && quota.get().cpus() <= affinity.count()) {
            CpuQuota q = quota.get();
            EffectiveCpuCount result = new EffectiveCpuCount(q.cpus(), q.describe());
            log.debug("Effective CPU count from {} quota: {} ({})", q.version().label(), result.count(),
                    result.origin());
            return result;
        }
        EffectiveCpuCount result = quota
                .map(q -> new EffectiveCpuCount(affinity.count(),
                        affinity.origin() + ", tighter than " + q.describe()))
                .orElse(affinity);
        log.debug("Effective CPU count from {}: {} ({})",
                affinity.origin().startsWith("cpu affinity") ? "cpu affinity" : "available processors",
                result.count(), result.origin());
        return result;
    }

    /** The CPUs the process may run on, from {@code /proc/self/status}; availableProcessors only if unreadable. */
    private EffectiveCpuCount affinity() {
        Path status = CgroupDirectory.resolve(fsRoot, "/proc/self/status");
        try {
            List<String> lines = Files.readAllLines(status);
            for (String line : lines) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    int cpus = CpusAllowedList.count(line.substring("Cpus_allowed_list:".length()));
                    return new EffectiveCpuCount(cpus, "cpu affinity (" + cpus + (cpus == 1 ? " CPU)" : " CPUs)"));
                }
            }
            log.debug("No Cpus_allowed_list in {}; using Runtime.availableProcessors()", status);
        } catch (IOException | IllegalArgumentException e) {
            log.debug("Cannot read Cpus_allowed_list from {} ({}); using Runtime.availableProcessors()", status,
                    e.toString());
        }
        int processors = Math.max(1, availableProcessors.getAsInt());
        return new EffectiveCpuCount(processors, "Runtime.availableProcessors() (" + processors + ")");
    }
}
