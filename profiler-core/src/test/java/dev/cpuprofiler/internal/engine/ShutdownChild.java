package dev.cpuprofiler.internal.engine;

/** Run in a JVM of its own: what the profiler sees before and during the JVM's shutdown. */
public final class ShutdownChild {

    public static void main(String[] args) {
        System.out.println("RUNNING " + JfrAvailability.shuttingDown() + " " + JfrAvailability.whyUnavailable());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("SHUTDOWN " + JfrAvailability.shuttingDown()
                + " " + JfrAvailability.whyUnavailable())));
    }
}
