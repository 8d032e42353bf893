package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.autoconfigure.CpuProfilerAutoConfiguration;
import dev.cpuprofiler.autoconfigure.CpuProfilerMetricsAutoConfiguration;
import dev.cpuprofiler.autoconfigure.CpuProfilerEndpointAutoConfiguration;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** What the export tests share: the auto-configurations, a stored profile, a test body, the meter. */
final class ExportFixtures {

    static final Instant STARTED = Instant.parse("2026-11-23T10:00:10.250Z");
    static final Instant ENDED = Instant.parse("2026-11-23T10:00:40.500Z");
    static final String HOT = "app.Kernel.spin";
    private static final AtomicInteger SEQ = new AtomicInteger();

    private ExportFixtures() {
    }

    static ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CpuProfilerAutoConfiguration.class,
                        CpuProfilerMetricsAutoConfiguration.class, CpuProfilerExportAutoConfiguration.class,
                        CpuProfilerEndpointAutoConfiguration.class, EndpointAutoConfiguration.class,
                        WebEndpointAutoConfiguration.class))
                // No CPU trigger, no look-back: the tests store their own profiles.
                .withPropertyValues("profiler.cpu.enabled=false",
                        "management.endpoints.web.exposure.include=cpuprofiler");
    }

    /** A manual async-profiler profile of 30 s at 10 ms: 70 samples in HOT, 30 in app.Io.read. */
    static Profile profile() {
        return profile(SessionTrigger.MANUAL);
    }

    /** As {@link #profile()}, recorded on that trigger (a reference of normal is pushed as any profile). */
    static Profile profile(SessionTrigger trigger) {
        StackTree tree = new StackTree(64, 10_000, false);
        tree.accept(List.of(Frame.java("java.lang.Thread.run"), Frame.java("app.Main.loop"), Frame.java(HOT)),
                "worker", 70);
        tree.accept(List.of(Frame.java("java.lang.Thread.run"), Frame.java("app.Io.read")), "worker", 30);
        return ProfileBuilder.profile("20261123T100010Z-" + trigger.name().toLowerCase(java.util.Locale.ROOT) + "-"
                + SEQ.incrementAndGet(), trigger, tree.snapshot()).engine(EngineChoice.ASYNC_PROFILER, "perf_events")
                .between(STARTED, ENDED).build();
    }

    /** The collapsed stacks of the profile: the transport's tests need known bytes, not a real pprof. */
    static byte[] collapsed(Profile profile) {
        try {
            return ProfileFormat.COLLAPSED.bytes(profile, ProfileView.FULL);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Claims pprof (the default format's query) and sends the collapsed text. */
    static final class CollapsedBody implements ProfileBody {

        @Override
        public String format() {
            return "pprof";
        }

        @Override
        public Optional<byte[]> encode(Profile profile) {
            return Optional.of(collapsed(profile));
        }
    }

    static double count(MeterRegistry registry, String target, String result) {
        return registry.get(ExportMeterBinder.METER).tag("target", target).tag("result", result).counter().count();
    }
}
