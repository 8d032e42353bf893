package dev.cpuprofiler.internal.engine;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JVM's system information in a JFR recording: its arguments and command line ({@code jdk.JVMInformation}),
 * its system properties ({@code jdk.InitialSystemProperty}), the OS ({@code jdk.OSInformation}: the kernel and host
 * name), the CPU and the loaded native libraries (their paths). Services pass passwords, client secrets and tokens
 * as {@code -D} options and program arguments, so a recording anyone may download carries none of it unless
 * {@link EngineSettings#includeSystemInfo()} asks for it. Environment variables ({@code
 * jdk.InitialEnvironmentVariable}) are recorded in no case.
 */
final class JfrSystemInfo {

    /**
     * async-profiler's {@code jfropts} bits that leave out its system information, system properties and native
     * libraries (its {@code NO_SYSTEM_INFO | NO_SYSTEM_PROPS | NO_NATIVE_LIBS}, src/arguments.h); without them it
     * writes {@code jdk.OSInformation}, {@code jdk.CPUInformation}, {@code jdk.JVMInformation}, every
     * {@code jdk.InitialSystemProperty} and every {@code jdk.NativeLibrary} at the start of each recording.
     */
    static final int ASYNC_PROFILER_NO_SYSTEM_INFO = 0x1 | 0x2 | 0x4;

    private static final Map<String, String> AT_CHUNK_START = Map.of("enabled", "true", "period", "beginChunk");

    /** What a JFR engine enables to carry the same information as async-profiler does by default. */
    static final Map<String, Map<String, String>> EVENTS = Map.of("jdk.JVMInformation", AT_CHUNK_START,
            "jdk.InitialSystemProperty", AT_CHUNK_START, "jdk.OSInformation", AT_CHUNK_START,
            "jdk.CPUInformation", AT_CHUNK_START, "jdk.NativeLibrary", AT_CHUNK_START);

    private JfrSystemInfo() {
    }

    /** The async-profiler command-line option for these settings: empty when system information is wanted. */
    static String asyncProfilerOption(EngineSettings settings) {
        return settings.includeSystemInfo() ? "" : ",jfropts=" + ASYNC_PROFILER_NO_SYSTEM_INFO;
    }

    /** A JFR engine's events, plus the system information's when the settings ask for it. */
    static Map<String, Map<String, String>> withSystemInfo(Map<String, Map<String, String>> samples,
            EngineSettings settings) {
        if (!settings.includeSystemInfo()) {
            return samples;
        }
        Map<String, Map<String, String>> all = new LinkedHashMap<>(samples);
        all.putAll(EVENTS);
        return all;
    }
}
