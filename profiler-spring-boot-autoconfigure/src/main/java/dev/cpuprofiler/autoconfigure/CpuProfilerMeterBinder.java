package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.CpuBreakdown;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * The profiler's meters, Micrometer style: ratios 0..1 (not percent), durations in seconds.
 *
 * <ul>
 * <li>{@code profiler.cpu.usage} — the latest CPU sample, 0..1 of the effective CPUs</li>
 * <li>{@code profiler.cpu.average} — the baseline the trigger compares, 0..1</li>
 * <li>{@code profiler.cpu.effective.count} — CPUs the ratios are relative to</li>
 * <li>{@code profiler.cpu.thread.max.usage} — the hottest application thread's CPU averaged over the saturation
 * window, 0..1 of ONE core; 0 when no application thread is active</li>
 * <li>{@code profiler.sessions} — sessions ended, tagged {@code trigger} (cpu, manual, saturation) and {@code outcome}
 * (completed, failed)</li>
 * <li>{@code profiler.session.active} — 1 while a session records</li>
 * <li>{@code profiler.cooldown.remaining} — seconds left in the cooldown, 0 outside one</li>
 * <li>{@code profiler.cpu.utilization} — the latest profile's utilization: CPU used by Java threads over the
 * effective CPUs, 0..1</li>
 * <li>{@code profiler.cpu.bottleneck} — the latest profile's share of time with at least one thread running,
 * 0..1 (near 1 with a low utilization: serialized work)</li>
 * <li>{@code profiler.lookback.memory} — bytes the look-back's ring holds now (only when look-back is on)</li>
 * <li>{@code profiler.cpu.breakdown} — the latest profile's share of the process's CPU time per {@code group}
 * (application, gc, jit, profiler, jvm-other, unattributed), 0..1; NaN before the first profile</li>
 * </ul>
 *
 * <p>Every gauge reads {@link CpuProfiler#status()}, the snapshot the endpoint shows, which never waits (a few
 * statvfs calls and a sort of the tracked threads: well under a millisecond each).
 */
public class CpuProfilerMeterBinder implements MeterBinder {

    private final CpuProfiler profiler;

    public CpuProfilerMeterBinder(CpuProfiler profiler) {
        // The gauges below hold the profiler weakly; this field keeps it alive as long as the binder.
        this.profiler = Objects.requireNonNull(profiler, "profiler");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        gauge(registry, "profiler.cpu.usage", s -> ratio(s.cpu().latestPercent()))
                .description("Latest CPU usage sample, as a ratio of the effective CPU count")
                .baseUnit("ratio")
                .register(registry);
        gauge(registry, "profiler.cpu.average", s -> ratio(s.cpu().averagePercent()))
                .description("Rolling CPU average the profiling trigger compares with its threshold, as a ratio")
                .baseUnit("ratio")
                .register(registry);
        gauge(registry, "profiler.cpu.effective.count", s -> s.cpu().effectiveCpuCount())
                .description("CPUs the process may use (cgroup quota, fractional, or CPU affinity)")
                .register(registry);
        gauge(registry, "profiler.cpu.thread.max.usage", s -> s.saturation().percentOfCore() == null ? 0.0
                : s.saturation().percentOfCore() / 100.0)
                .description("The hottest application thread's CPU over the saturation window, as a ratio of one core")
                .baseUnit("ratio")
                .register(registry);
        gauge(registry, "profiler.session.active", s -> s.session() != null ? 1 : 0)
                .description("1 while a profiling session is recording, else 0")
                .register(registry);
        gauge(registry, "profiler.cooldown.remaining", s -> s.trigger().cooldownRemaining() == null ? 0.0
                : s.trigger().cooldownRemaining().toNanos() / 1e9)
                .description("Time left before the CPU trigger may start another profile")
                .baseUnit("seconds")
                .register(registry);
        gauge(registry, "profiler.cpu.utilization", s -> latestConcurrency(s, true))
                .description("Latest profile: CPU used by the threads over the effective CPUs (the heater ratio)")
                .baseUnit("ratio")
                .register(registry);
        gauge(registry, "profiler.cpu.bottleneck", s -> latestConcurrency(s, false))
                .description("Latest profile: share of time with at least one thread running (the anti-ratio)")
                .baseUnit("ratio")
                .register(registry);
        if (profiler.status().lookback().state() != CpuProfilerStatus.LookbackState.OFF) {
            gauge(registry, "profiler.lookback.memory", s -> s.lookback().footprintBytes())
                    .description("Heap the look-back's ring of recent stack samples holds")
                    .baseUnit("bytes")
                    .register(registry);
        }
        for (CpuBreakdown.Group group : CpuBreakdown.Group.values()) {
            gauge(registry, "profiler.cpu.breakdown", s -> s.latestProfile() == null
                    || s.latestProfile().cpu().breakdown() == null ? Double.NaN
                    : s.latestProfile().cpu().breakdown().ratio(group))
                    .description("Latest profile: share of the process's CPU time used by this group of threads")
                    .tag("group", group.id())
                    .baseUnit("ratio")
                    .register(registry);
        }
        for (SessionTrigger trigger : SessionTrigger.values()) {
            for (String outcome : new String[] {"completed", "failed"}) {
                sessions(registry, trigger.name().toLowerCase(Locale.ROOT), outcome);
            }
        }
        profiler.addSessionEndListener((trigger, session, outcome) -> sessions(registry,
                trigger.name().toLowerCase(Locale.ROOT), outcome(outcome)).increment());
    }

    private Gauge.Builder<CpuProfiler> gauge(MeterRegistry registry, String name,
            ToDoubleFunction<CpuProfilerStatus> value) {
        return Gauge.builder(name, profiler, p -> value.applyAsDouble(p.status()));
    }

    private static double latestConcurrency(CpuProfilerStatus s, boolean utilization) {
        Profile latest = s.latestProfile();
        if (latest == null || latest.cpu().concurrency() == null) {
            return Double.NaN;
        }
        return utilization ? latest.cpu().concurrency().utilization() : latest.cpu().concurrency().bottleneck();
    }

    private static Counter sessions(MeterRegistry registry, String trigger, String outcome) {
        return Counter.builder("profiler.sessions")
                .description("Profiling sessions that ended")
                .tag("trigger", trigger)
                .tag("outcome", outcome)
                .register(registry);
    }

    private static String outcome(SessionOutcome outcome) {
        return outcome.failed() ? "failed" : "completed";
    }

    private static double ratio(Double percent) {
        return percent == null || Double.isNaN(percent) ? Double.NaN : percent / 100.0;
    }
}
