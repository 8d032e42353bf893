package dev.cpuprofiler.benchmarks.harness;

import static dev.cpuprofiler.benchmarks.harness.Report.num;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import one.jfr.JfrReader;
import one.jfr.MethodRef;
import one.jfr.StackTrace;
import one.jfr.event.ExecutionSample;

/**
 * Samples through {@code SplitWorkload.hotSixty}, {@code .warmThirty} and {@code .coolTen}: the split's samples, and
 * the shares of the three among them. These methods run only during the spike, so counting them over a whole
 * recording counts the spike's window. Read from the starter's collapsed stacks or from a JFR recording
 * ({@code jdk.ExecutionSample}, JDK's or async-profiler's, through async-profiler's {@code JfrReader}; the
 * Pyroscope agent's uploads, which that reader rejects as corrupt, through the JDK's own {@code RecordingFile}).
 */
record SpikeShares(long hot, long warm, long cool) {

    static final SpikeShares NONE = new SpikeShares(0, 0, 0);

    long total() {
        return hot + warm + cool;
    }

    double hotPct() {
        return pct(hot);
    }

    double warmPct() {
        return pct(warm);
    }

    double coolPct() {
        return pct(cool);
    }

    private double pct(long n) {
        return total() == 0 ? Double.NaN : 100.0 * n / total();
    }

    SpikeShares plus(SpikeShares o) {
        return new SpikeShares(hot + o.hot, warm + o.warm, cool + o.cool);
    }

    /** "61.0 / 29.5 / 9.5" */
    String text() {
        return total() == 0 ? "–" : num(hotPct(), 1) + " / " + num(warmPct(), 1) + " / " + num(coolPct(), 1);
    }

    /** The largest difference from {@code truth}, in percentage points. */
    double maxError(SpikeShares truth) {
        if (total() == 0 || truth.total() == 0) {
            return Double.NaN;
        }
        return Math.max(Math.abs(hotPct() - truth.hotPct()),
                Math.max(Math.abs(warmPct() - truth.warmPct()), Math.abs(coolPct() - truth.coolPct())));
    }

    /** From {@code frame;frame;... count} lines; weights as the starter gives them. */
    static SpikeShares ofCollapsed(String collapsed) {
        long h = 0;
        long w = 0;
        long c = 0;
        for (String line : collapsed.split("\n")) {
            int sp = line.lastIndexOf(' ');
            if (sp < 0) {
                continue;
            }
            long n;
            try {
                n = Long.parseLong(line.substring(sp + 1).trim());
            } catch (NumberFormatException e) {
                continue;
            }
            String stack = line.substring(0, sp);
            if (stack.contains("SplitWorkload.hotSixty")) {
                h += n;
            } else if (stack.contains("SplitWorkload.warmThirty")) {
                w += n;
            } else if (stack.contains("SplitWorkload.coolTen")) {
                c += n;
            }
        }
        return new SpikeShares(h, w, c);
    }

    static SpikeShares ofJfr(String file) throws IOException {
        try (JfrReader reader = new JfrReader(file)) {
            return of(reader);
        }
    }

    /** Through the JDK's {@code jdk.jfr.consumer} API. */
    static SpikeShares ofRecordingFile(Path file) throws IOException {
        long[] c = new long[3];
        try (RecordingFile rf = new RecordingFile(file)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
                    continue;
                }
                for (RecordedFrame f : e.getStackTrace().getFrames()) {
                    int which = index(f.getMethod() == null ? "" : f.getMethod().getName());
                    if (which >= 0) {
                        c[which]++;
                        break;
                    }
                }
            }
        }
        return new SpikeShares(c[0], c[1], c[2]);
    }

    /** Chunk by chunk: each chunk has its own constant pools. */
    private static SpikeShares of(JfrReader reader) throws IOException {
        reader.stopAtNewChunk = true;
        long[] c = new long[3];
        do {
            ExecutionSample e;
            while ((e = reader.readEvent(ExecutionSample.class)) != null) {
                StackTrace st = reader.stackTraces.get(e.stackTraceId);
                if (st == null) {
                    continue;
                }
                int which = -1;
                for (long m : st.methods) {
                    which = which(reader, m);
                    if (which >= 0) {
                        break;
                    }
                }
                if (which >= 0) {
                    c[which] += Math.max(1, e.samples);
                }
            }
        } while (reader.hasMoreChunks());
        return new SpikeShares(c[0], c[1], c[2]);
    }

    private static int which(JfrReader reader, long methodId) {
        MethodRef m = reader.methods.get(methodId);
        if (m == null) {
            return -1;
        }
        byte[] name = reader.symbols.get(m.name);
        if (name == null) {
            return -1;
        }
        return index(new String(name, StandardCharsets.UTF_8));
    }

    private static int index(String method) {
        return switch (method) {
            case "hotSixty" -> 0;
            case "warmThirty" -> 1;
            case "coolTen" -> 2;
            default -> -1;
        };
    }
}
