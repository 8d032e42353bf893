package dev.cpuprofiler;

import java.util.Locale;

/** Which sampling engine records a profile ({@code profiler.cpu.engine}). */
public enum EngineChoice {
    /** The first of jfr-cpu-time, async-profiler, jfr-execution that starts. */
    AUTO("auto"),
    /** JFR {@code jdk.CPUTimeSample} (JDK 25+, Linux). */
    JFR_CPU_TIME("jfr-cpu-time"),
    /** async-profiler with {@code event=cpu}, when {@code tools.profiler:async-profiler} is on the classpath. */
    ASYNC_PROFILER("async-profiler"),
    /** JFR {@code jdk.ExecutionSample}: threads running Java code (every JDK 17+). */
    JFR_EXECUTION("jfr-execution");

    private final String id;

    EngineChoice(String id) {
        this.id = id;
    }

    /** The name used in properties, profiles and the endpoint. */
    public String id() {
        return id;
    }

    /** Its {@link #id()}: an engine reads in a log line or a title as it does in the properties. */
    @Override
    public String toString() {
        return id;
    }

    /**
     * Parses {@code jfr-cpu-time}, {@code JFR_CPU_TIME} and the like.
     *
     * @throws IllegalArgumentException for any other value, listing the ids
     */
    public static EngineChoice fromId(String value) {
        String normalized = value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (EngineChoice choice : values()) {
            if (choice.id.equals(normalized)) {
                return choice;
            }
        }
        throw new IllegalArgumentException("unknown engine '" + value + "': use auto, jfr-cpu-time, async-profiler or "
                + "jfr-execution");
    }
}
