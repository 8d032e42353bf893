package dev.cpuprofiler.internal.core;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * Names and daemonizes the threads an injected factory makes, so every profiler thread is recognisable
 * in a thread dump ({@code cpuprofiler-sampler}, ...) and none keeps the JVM alive.
 */
final class NamedThreadFactory implements ThreadFactory {

    private final ThreadFactory delegate;
    private final String name;

    NamedThreadFactory(ThreadFactory delegate, String name) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.name = Objects.requireNonNull(name, "name");
    }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = delegate.newThread(r);
        t.setName(name);
        t.setDaemon(true);
        return t;
    }
}
