package dev.cpuprofiler.benchmarks.harness;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** Command lines for child JVMs: which java, which classpath, which flags. */
final class Jvms {

    static final String JDK25_DEFAULT = "/usr/lib/jvm/temurin-25-jdk-amd64";
    /** Honest attribution of inlined frames, for every variant alike (docs/engines.md). */
    static final List<String> COMMON_FLAGS = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints");

    final String java;
    final String java25; // null when absent
    final String java25Missing;
    final String classpath;
    final String classpathWithoutAsyncProfiler;
    final String asyncProfilerJar; // null when absent

    Jvms() {
        java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String home25 = System.getenv().getOrDefault("JDK25_HOME", JDK25_DEFAULT);
        Path j25 = Path.of(home25, "bin", "java");
        java25 = Files.isExecutable(j25) ? j25.toString() : null;
        java25Missing = java25 == null ? "no JDK 25 at " + home25 + " (set JDK25_HOME)" : null;
        classpath = System.getProperty("java.class.path");
        List<String> entries = Arrays.asList(classpath.split(File.pathSeparator));
        asyncProfilerJar = entries.stream().filter(e -> Path.of(e).getFileName().toString().startsWith("async-profiler"))
                .findFirst().orElse(null);
        classpathWithoutAsyncProfiler = entries.stream().filter(e -> !e.equals(asyncProfilerJar))
                .collect(Collectors.joining(File.pathSeparator));
    }

    List<String> command(boolean jdk25, boolean withAsyncProfiler, List<String> flags, String mainClass,
            List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(jdk25 ? java25 : java);
        cmd.addAll(COMMON_FLAGS);
        cmd.addAll(flags);
        cmd.add("-cp");
        cmd.add(withAsyncProfiler ? classpath : classpathWithoutAsyncProfiler);
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    static String version(String java) {
        try {
            Process p = new ProcessBuilder(java, "-version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor();
            String first = out.lines().filter(l -> l.contains("version")).findFirst().orElse(out.trim());
            String vm = out.lines().filter(l -> l.contains("Runtime Environment")).findFirst().orElse("");
            return first.trim() + (vm.isEmpty() ? "" : " (" + vm.trim() + ")");
        } catch (Exception e) {
            return "?";
        }
    }
}
