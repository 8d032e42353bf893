package dev.cpuprofiler.benchmarks.harness;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory of one child JVM read from outside, for {@link Guest}: {@code /proc/<pid>/status} and {@code smaps}
 * (the resident part of the Java heap's mapping, so that what the heap has touched is told apart from native memory),
 * {@code jcmd} (a full GC and the heap used after it, the loaded-class counter; with {@code nmt}, Native Memory
 * Tracking's summary, the loaded classes by name and the heap's class histogram, each saved to a file), the threads by name, and whether
 * async-profiler's library is mapped. No JFR diagnostic command: on JDK 17 {@code jcmd <pid> JFR.check} creates
 * the flight recorder in the target (its threads appear in a JVM that had none), so JFR's state is read from its
 * threads and from NMT's {@code Tracing} category instead.
 */
final class GuestProbe {

    /** One reading. Sizes in bytes; {@code nmtCommittedKb}: NMT category → committed KB (empty without NMT). */
    record Reading(long rss, long rssAnon, long heapResident, long heapUsedBefore, long heapUsedAfterGc,
            long metaspaceUsed, long classes, Map<String, Integer> threads, boolean asyncProfilerMapped,
            long rssTrimmed, long heapResidentTrimmed, long trimmedBytes, Map<String, Long> nmtCommittedKb,
            Map<String, Long> nmtPeakKb, Path nmtFile, Path classesFile, Path histogramFile) {

        long nonHeapRss() {
            return rss < 0 || heapResident < 0 ? -1 : rss - heapResident;
        }

        /** Native memory still resident after the full GC and a malloc trim: what the process holds, not its peak. */
        long nonHeapTrimmed() {
            return rssTrimmed < 0 || heapResidentTrimmed < 0 ? -1 : rssTrimmed - heapResidentTrimmed;
        }

        int threadCount() {
            return threads.values().stream().mapToInt(Integer::intValue).sum();
        }

        /** Threads whose (15-character, kernel) name starts with one of the prefixes, "name ×n" each. */
        List<String> threadNames(String... prefixes) {
            List<String> out = new ArrayList<>();
            threads.forEach((name, n) -> {
                for (String p : prefixes) {
                    if (name.startsWith(p)) {
                        out.add(n > 1 ? name + " ×" + n : name);
                        return;
                    }
                }
            });
            return out;
        }

        /** JFR's recorder exists: its threads ({@code JFR Recorder Thread}, {@code JFR Periodic Tasks}) run. */
        boolean jfrInitialised() {
            return threads.keySet().stream().anyMatch(n -> n.startsWith("JFR "));
        }
    }

    private static final Pattern HEAP = Pattern.compile(
            "heap\\s+total (\\d+)K, used (\\d+)K \\[0x([0-9a-f]+), 0x([0-9a-f]+)\\)");
    /** "Trim native heap: RSS+Swap: 200M->176M (-24460K)". */
    private static final Pattern TRIM = Pattern.compile("Trim native heap: .*\\(([-+]?\\d+)K\\)");
    private static final Pattern METASPACE = Pattern.compile("Metaspace\\s+used (\\d+)K");
    private static final Pattern NMT_CATEGORY = Pattern.compile(
            "^-?\\s*([A-Z][A-Za-z ()]*?)\\s+\\(reserved=(\\d+)KB, committed=(\\d+)KB\\)");
    private static final Pattern NMT_TOTAL = Pattern.compile("^Total: reserved=(\\d+)KB, committed=(\\d+)KB");

    private final String jcmd;
    private final Map<Long, long[]> heapRanges = new java.util.concurrent.ConcurrentHashMap<>();

    GuestProbe(String javaCommand) {
        Path bin = Path.of(javaCommand).getParent();
        Path j = bin == null ? Path.of("jcmd") : bin.resolve("jcmd");
        jcmd = Files.isExecutable(j) ? j.toString() : "jcmd";
    }

    /**
     * Reads the process now: RSS and the heap mapping's resident part first (the state as it is), then a full GC
     * ({@code jcmd GC.run}) and the heap used after it; with {@code nmt} the NMT summary and the class list are saved
     * under {@code dir} as {@code <tag>.nmt} / {@code <tag>.classes}.
     */
    Reading read(long pid, boolean nmt, Path dir, String tag) throws IOException, InterruptedException {
        long[] range = heapRanges.get(pid);
        if (range == null) { // -Xms = -Xmx: the heap's reservation does not move, one look is enough
            Matcher h = HEAP.matcher(jcmd(pid, "GC.heap_info"));
            range = h.find() ? new long[] {Long.parseUnsignedLong(h.group(3), 16),
                    Long.parseUnsignedLong(h.group(4), 16)} : new long[] {-1, -1};
            heapRanges.put(pid, range);
        }
        long[] status = status(pid);
        long heapResident = range[0] < 0 ? -1 : residentIn(pid, range[0], range[1]);
        Map<String, Integer> threads = threads(pid);
        boolean mapped = asyncProfilerMapped(pid);
        // One attach for the GC, the figures after it and a malloc trim (jcmd -f: a file's commands, in order).
        // glibc keeps freed malloc memory (the JIT's arenas peak at tens of MB while it compiles) resident until
        // trimmed, so the native RSS "as is" carries the process's peak; after System.trim_native_heap (JDK 17.0.9+,
        // glibc) it is what the process holds.
        Path batch = Files.createTempFile("guest-jcmd", ".txt");
        String after;
        try {
            Files.writeString(batch, "GC.heap_info\nGC.run\nGC.heap_info\nSystem.trim_native_heap\n");
            after = jcmd(pid, "-f", batch.toString());
        } finally {
            Files.deleteIfExists(batch);
        }
        long[] trimmedStatus = status(pid);
        long heapResidentTrimmed = range[0] < 0 ? -1 : residentIn(pid, range[0], range[1]);
        Matcher tr = TRIM.matcher(after);
        long trimmed = tr.find() ? -Long.parseLong(tr.group(1).replace("+", "")) * 1024 : -1; // freed, bytes
        Matcher a = HEAP.matcher(after);
        long usedBefore = a.find() ? Long.parseLong(a.group(2)) * 1024 : -1;
        long usedAfter = a.find() ? Long.parseLong(a.group(2)) * 1024 : -1;
        Matcher m = METASPACE.matcher(after);
        long metaspace = -1;
        while (m.find()) { // the last one: after the GC
            metaspace = Long.parseLong(m.group(1)) * 1024;
        }
        long classes = loadedClasses(jcmd(pid, "PerfCounter.print"));
        Map<String, Long> nmtKb = Map.of();
        Map<String, Long> peakKb = Map.of();
        Path nmtFile = null;
        Path classesFile = null;
        Path histogramFile = null;
        if (nmt) {
            String summary = jcmd(pid, "VM.native_memory", "summary");
            nmtFile = dir.resolve(tag + ".nmt");
            Files.writeString(nmtFile, summary);
            nmtKb = parseNmt(summary);
            peakKb = parseNmtPeaks(summary);
            classesFile = dir.resolve(tag + ".classes");
            Files.writeString(classesFile, jcmd(pid, "VM.class_hierarchy"));
            histogramFile = dir.resolve(tag + ".histo");
            Files.writeString(histogramFile, jcmd(pid, "GC.class_histogram")); // live objects: a full GC of its own
        }
        return new Reading(status[0], status[1], heapResident, usedBefore, usedAfter, metaspace, classes, threads,
                mapped, trimmedStatus[0], heapResidentTrimmed, trimmed, nmtKb, peakKb, nmtFile, classesFile,
                histogramFile);
    }

    /** VmRSS and RssAnon in bytes (-1 if unknown). */
    static long[] status(long pid) {
        long rss = -1;
        long anon = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                } else if (line.startsWith("RssAnon:")) {
                    anon = Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone
        }
        return new long[] {rss, anon};
    }

    /** The resident bytes of the mappings inside [lo, hi) ({@code Rss:} lines of {@code /proc/<pid>/smaps}). */
    static long residentIn(long pid, long lo, long hi) {
        long sum = 0;
        boolean inside = false;
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "smaps"))) {
                int dash = line.indexOf('-');
                int space = line.indexOf(' ');
                if (dash > 0 && space > dash && isHex(line, 0, dash)) {
                    long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
                    long end = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                    inside = start >= lo && end <= hi;
                } else if (inside && line.startsWith("Rss:")) {
                    sum += Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return sum;
    }

    private static boolean isHex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return to > from;
    }

    /** Thread names (the kernel's 15 characters) with how many of each. */
    static Map<String, Integer> threads(long pid) {
        Map<String, Integer> out = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    out.merge(Files.readString(task.resolve("comm")).trim(), 1, Integer::sum);
                } catch (IOException e) {
                    // ended meanwhile
                }
            }
        } catch (IOException e) {
            // gone
        }
        return out;
    }

    static boolean asyncProfilerMapped(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps")).stream()
                    .anyMatch(l -> l.contains("libasyncProfiler"));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Classes loaded now: {@code java.cls.loadedClasses} − {@code java.cls.unloadedClasses}. */
    static long loadedClasses(String perf) {
        long loaded = -1;
        long unloaded = 0;
        for (String line : perf.split("\n")) {
            if (line.startsWith("java.cls.loadedClasses=")) {
                loaded = Long.parseLong(line.substring(line.indexOf('=') + 1).trim());
            } else if (line.startsWith("java.cls.unloadedClasses=")) {
                unloaded = Long.parseLong(line.substring(line.indexOf('=') + 1).trim());
            }
        }
        return loaded < 0 ? -1 : loaded - unloaded;
    }

    /** NMT summary: category → committed KB, and "Total". */
    static Map<String, Long> parseNmt(String summary) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String raw : summary.split("\n")) {
            String line = raw.trim();
            Matcher t = NMT_TOTAL.matcher(line);
            if (t.find()) {
                out.put("Total", Long.parseLong(t.group(2)));
                continue;
            }
            Matcher c = NMT_CATEGORY.matcher(line);
            if (c.find()) {
                out.put(c.group(1).trim(), Long.parseLong(c.group(3)));
            }
        }
        return out;
    }

    private static final Pattern NMT_PEAK = Pattern.compile(
            "\\((malloc|arena)=(\\d+)KB #\\d+\\)\\s*(?:\\(peak=(\\d+)KB #\\d+\\)|\\(at peak\\))?");

    /**
     * NMT summary: category → the peak of its malloc plus the peak of its arenas, KB (JDK 17.0.x prints
     * {@code (peak=...)} or {@code (at peak)} after each): what a category reached, freed since or not.
     */
    static Map<String, Long> parseNmtPeaks(String summary) {
        Map<String, Long> out = new LinkedHashMap<>();
        String category = null;
        for (String raw : summary.split("\n")) {
            String line = raw.trim();
            Matcher c = NMT_CATEGORY.matcher(line);
            if (c.find()) {
                category = c.group(1).trim();
                continue;
            }
            if (category == null) {
                continue;
            }
            Matcher p = NMT_PEAK.matcher(line);
            while (p.find()) {
                long kb = p.group(3) != null ? Long.parseLong(p.group(3)) : Long.parseLong(p.group(2));
                out.merge(category, kb, Long::sum);
            }
        }
        return out;
    }

    String jcmd(long pid, String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(jcmd, Long.toString(pid)));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return new String(out);
    }
}
