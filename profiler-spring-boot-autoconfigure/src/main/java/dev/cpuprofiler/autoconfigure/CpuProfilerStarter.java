package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfiler;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

/**
 * Starts monitoring when the application is ready, not while it starts: start-up itself (class loading,
 * JIT, caches warming) burns CPU that says nothing about the running service.
 */
public class CpuProfilerStarter implements ApplicationListener<ApplicationReadyEvent> {

    private final CpuProfiler cpuProfiler;

    public CpuProfilerStarter(CpuProfiler cpuProfiler) {
        this.cpuProfiler = cpuProfiler;
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        cpuProfiler.start();
    }
}
