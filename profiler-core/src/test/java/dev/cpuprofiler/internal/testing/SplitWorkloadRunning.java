package dev.cpuprofiler.internal.testing;

import dev.cpuprofiler.internal.engine.EnginesHere;
import dev.cpuprofiler.fixtures.SplitWorkload;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The 60/30/10 workload running for a whole test class, registered with {@code @RegisterExtension static}. Before
 * it starts, JFR's CPU-time sampler installs its signal handler (async-profiler must come second in a JVM).
 */
public final class SplitWorkloadRunning implements BeforeAllCallback, AfterAllCallback {

    private SplitWorkload workload;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        EnginesHere.letJfrInstallSigprofFirst();
        workload = new SplitWorkload().start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        workload.close();
    }

    /** The running workload, for its own account of the CPU split. */
    public SplitWorkload workload() {
        return workload;
    }
}
