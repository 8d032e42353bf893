package dev.cpuprofiler.realistic;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * async-profiler's own JVMTI agent, the truth: its native library taken out of the {@code tools.profiler:
 * async-profiler} jar and loaded into a running JVM through the JDK's Attach API, exactly as its {@code asprof}
 * launcher does ({@code VirtualMachine.loadAgentPath(lib, "start,...")}, later {@code "stop,..."}).
 */
final class AsyncProfilerAgent {

    private final Path library;

    private AsyncProfilerAgent(Path library) {
        this.library = library;
    }

    /** The jar's entry for this machine, e.g. {@code linux-x64/libasyncProfiler.so}; null where there is none. */
    static String libraryEntry() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        if (os.contains("linux")) {
            if (arch.equals("amd64") || arch.equals("x86_64")) {
                return "linux-x64/libasyncProfiler.so";
            }
            if (arch.equals("aarch64") || arch.equals("arm64")) {
                return "linux-arm64/libasyncProfiler.so";
            }
        } else if (os.contains("mac")) {
            return "macos/libasyncProfiler.so";
        }
        return null;
    }

    /** Extracts this machine's library from the jar into {@code directory}; throws if the jar has none for it. */
    static AsyncProfilerAgent extract(Path jar, Path directory) throws IOException {
        String entryName = libraryEntry();
        if (entryName == null) {
            throw new IOException("async-profiler has no library for " + System.getProperty("os.name") + " "
                    + System.getProperty("os.arch"));
        }
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry entry = zip.getEntry(entryName);
            if (entry == null) {
                throw new IOException(jar + " has no " + entryName);
            }
            Files.createDirectories(directory);
            Path library = directory.resolve("libasyncProfiler.so");
            try (InputStream in = zip.getInputStream(entry)) {
                Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
            }
            return new AsyncProfilerAgent(library);
        }
    }

    /** Starts CPU sampling in the JVM {@code pid}: every 10 ms of CPU time, stacks up to 2048 frames deep. */
    void start(long pid) throws Exception {
        execute(pid, "start,event=cpu,interval=10ms,jstackdepth=2048");
    }

    /** Stops it and writes annotated collapsed stacks (Java frames dotted) to {@code collapsed}. */
    void stop(long pid, Path collapsed) throws Exception {
        execute(pid, "stop,collapsed,ann,file=" + collapsed.toAbsolutePath());
    }

    private void execute(long pid, String command) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        try {
            vm.loadAgentPath(library.toAbsolutePath().toString(), command);
        } finally {
            vm.detach();
        }
    }
}
