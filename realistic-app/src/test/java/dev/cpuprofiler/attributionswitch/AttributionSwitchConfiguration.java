package dev.cpuprofiler.attributionswitch;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.RequestActivity;
import dev.cpuprofiler.autoconfigure.CpuProfilerObservationHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * For {@code AttributionThroughputBenchmark} only: request attribution (CPU by endpoint) that can be switched off and
 * on in the running shop, while a profile records. Outside {@code dev.cpuprofiler.realistic}, so the shop's component
 * scan never finds it; the benchmark puts realistic-app's test classes on the child's classpath and adds it with
 * {@code --spring.main.sources=dev.cpuprofiler.attributionswitch.AttributionSwitchConfiguration}.
 * <p>
 * The starter's {@link CpuProfilerObservationHandler} bean backs off for this one ({@code @ConditionalOnMissingBean}):
 * the same class around the same {@code cpuProfiler.requestActivity()}, except that {@code isRecording()} is false
 * while switched off, so the handler then does what it does when no profile records (one more volatile read either
 * way). {@code POST /attribution-switch?on=true|false} flips it, {@code GET /attribution-switch} reads it; both
 * answer {@code on} or {@code off}. It starts on, as the starter's handler.
 */
@Configuration(proxyBeanMethods = false)
@Import(AttributionSwitchConfiguration.SwitchController.class)
public class AttributionSwitchConfiguration {

    @Bean
    AttributionSwitch attributionSwitch() {
        return new AttributionSwitch();
    }

    @Bean
    CpuProfilerObservationHandler cpuProfilerObservationHandler(CpuProfiler cpuProfiler, AttributionSwitch on) {
        return new CpuProfilerObservationHandler(new SwitchableRequestActivity(cpuProfiler.requestActivity(), on));
    }

    /** Whether attribution is on. */
    public static final class AttributionSwitch {

        private volatile boolean on = true;

        boolean isOn() {
            return on;
        }

        void set(boolean value) {
            on = value;
        }
    }

    /** The core's {@link RequestActivity}, seen as not recording while the switch is off. */
    static final class SwitchableRequestActivity implements RequestActivity {

        private final RequestActivity delegate;
        private final AttributionSwitch on;

        SwitchableRequestActivity(RequestActivity delegate, AttributionSwitch on) {
            this.delegate = delegate;
            this.on = on;
        }

        @Override
        public boolean isRecording() {
            return on.isOn() && delegate.isRecording();
        }

        // The handler calls these only after isRecording() said true: straight through, as the starter's handler.

        @Override
        public void completed(String name, long nanos) {
            if (on.isOn()) {
                delegate.completed(name, nanos);
            }
        }

        @Override
        public long newRequest() {
            return delegate.newRequest();
        }

        @Override
        public void enter(long request) {
            delegate.enter(request);
        }

        @Override
        public void exit(long request) {
            delegate.exit(request);
        }

        @Override
        public void ended(long request, String name) {
            delegate.ended(request, name);
        }

        @Override
        public void ended(long request, String name, String traceId, String spanId) {
            delegate.ended(request, name, traceId, spanId);
        }
    }

    /** {@code /attribution-switch}: the benchmark's handle on the switch. */
    @RestController
    static class SwitchController {

        private final AttributionSwitch on;

        SwitchController(AttributionSwitch on) {
            this.on = on;
        }

        @GetMapping("/attribution-switch")
        String get() {
            return on.isOn() ? "on" : "off";
        }

        @PostMapping("/attribution-switch")
        String set(@RequestParam("on") boolean value) {
            on.set(value);
            return get();
        }
    }
}
