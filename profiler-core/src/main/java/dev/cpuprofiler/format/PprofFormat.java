package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile;

import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Encodes a profile as pprof's {@code profile.proto}, gzipped, as {@code go tool pprof}, Pyroscope and Grafana read
 * it. Two sample types, {@code samples/count} and {@code cpu/nanoseconds} (weight × sampling period); period type
 * {@code cpu/nanoseconds}; one {@code Function} and one {@code Location} per distinct frame (name and kind), named as
 * the other formats print it; one {@code Sample} per tree node that samples end in, its locations leaf first. When
 * the tree is grouped by thread, the thread groups are not frames but a {@code thread} label on each sample; a profile
 * with endpoints carries an {@code endpoint} label on each sample instead (ungrouped or grouped by endpoint), as
 * {@code go tool pprof -tags} lists and {@code -tagfocus=endpoint=...} selects; a traced request's samples carry
 * {@code span_id} and {@code span_name} too, the labels of Pyroscope's span profiles (its Java and Go integrations
 * label the local root span: its 16-hex-digit id and its name), from {@link Profile.Requests#spanTree}. Every label
 * is read from the tree's group nodes ({@link FrameKind#isGroup()}), never from a frame's name.
 *
 * <p>Written like OTLP, with {@link ProtoMessage} and profile.proto's field numbers (part of pprof's wire contract,
 * they never change). Our frames carry no file names or line numbers, so {@code filename} is empty and lines are 0.
 */
final class PprofFormat extends FormatBase {

    // profile.proto field numbers (github.com/google/pprof, proto/profile.proto).
    private static final int PROFILE_SAMPLE_TYPE = 1;
    private static final int PROFILE_SAMPLE = 2;
    private static final int PROFILE_MAPPING = 3;
    private static final int PROFILE_LOCATION = 4;
    private static final int PROFILE_FUNCTION = 5;
    private static final int PROFILE_STRING_TABLE = 6;
    private static final int PROFILE_TIME_NANOS = 9;
    private static final int PROFILE_DURATION_NANOS = 10;
    private static final int PROFILE_PERIOD_TYPE = 11;
    private static final int PROFILE_PERIOD = 12;
    private static final int PROFILE_COMMENT = 13;
    private static final int PROFILE_DEFAULT_SAMPLE_TYPE = 14;
    private static final int VALUE_TYPE_TYPE = 1;
    private static final int VALUE_TYPE_UNIT = 2;
    private static final int SAMPLE_LOCATION_ID = 1;
    private static final int SAMPLE_VALUE = 2;
    private static final int SAMPLE_LABEL = 3;
    private static final int LABEL_KEY = 1;
    private static final int LABEL_STR = 2;
    private static final int MAPPING_ID = 1;
    private static final int MAPPING_FILENAME = 5;
    private static final int MAPPING_HAS_FUNCTIONS = 7;
    private static final int LOCATION_ID = 1;
    private static final int LOCATION_MAPPING_ID = 2;
    private static final int LOCATION_LINE = 4;
    private static final int LINE_FUNCTION_ID = 1;
    private static final int FUNCTION_ID = 1;
    private static final int FUNCTION_NAME = 2;
    private static final int FUNCTION_SYSTEM_NAME = 3;
    private static final int FUNCTION_FILENAME = 4;

    /** The one mapping every location points to: it says the functions are known, so pprof never symbolizes. */
    private static final long MAPPING = 1;

    PprofFormat() {
        super("pprof", "application/octet-stream", ".pb.gz");
    }

    /**
     * The profile in the view, as gzipped profile.proto; compared with another profile ({@link ProfileView#reference()}),
     * that one in the same view instead, as it was recorded (not scaled: {@code -normalize} scales it), the base of
     * {@code go tool pprof -diff_base=reference.pb.gz profile.pb.gz}; its comment names the profile it is the base of.
     */
    @Override
    public void write(Profile profile, ProfileView view, OutputStream out) throws IOException {
        GZIPOutputStream gzip = new GZIPOutputStream(out, 1 << 16);
        Profile reference = view.reference();
        if (reference == null) {
            new Writer(profile, view, gzip, "").write();
        } else {
            new Writer(reference, view.ofReference(), gzip, ", the base profile " + profile.id()
                    + " is compared with").write();
        }
        gzip.finish();
    }

    /** One encoding: the string table and frame ids it builds as it goes. */
    private static final class Writer {

        private final Profile profile;
        private final ProfileView view;
        private final StackTreeSnapshot tree;
        private final OutputStream out;
        // The profile's own fields, written out as they come: a profile's samples are never all in memory at once.
        private final ProtoMessage top = new ProtoMessage();
        private final Map<String, Integer> stringIds = new HashMap<>();
        private final List<String> strings = new ArrayList<>();
        /** Location (= function) id by frame name and kind; ids start at 1. */
        private final Map<FrameKey, Integer> frameIds = new HashMap<>();
        private final List<FrameKey> frames = new ArrayList<>();
        private final ProtoMessage message = new ProtoMessage();
        private final ProtoMessage inner = new ProtoMessage();
        private final String role;

        /** @param role what the comment adds to the profile's description: empty, or whose base it is */
        Writer(Profile profile, ProfileView view, OutputStream out, String role) {
            this.profile = profile;
            this.view = view;
            this.role = role;
            this.tree = view.labelled(profile).labelledTree(profile);
            this.out = out;
            string("");  // string_table[0] must be ""
        }

        void write() throws IOException {
            Duration period = profile.recording().samplingPeriod();
            long periodNanos = period == null ? 0 : period.toNanos();
            int samples = string("samples");
            int count = string("count");
            int cpu = string("cpu");
            int nanoseconds = string("nanoseconds");

            valueType(PROFILE_SAMPLE_TYPE, samples, count);
            valueType(PROFILE_SAMPLE_TYPE, cpu, nanoseconds);
            writeSamples(periodNanos);

            int jvm = string("jvm");
            end(PROFILE_MAPPING, message.reset().uint64(MAPPING_ID, MAPPING).int64(MAPPING_FILENAME, jvm)
                    .bool(MAPPING_HAS_FUNCTIONS, true));
            for (int id = 1; id <= frames.size(); id++) {
                inner.reset().uint64(LINE_FUNCTION_ID, id);  // line 0: our frames carry no line numbers
                end(PROFILE_LOCATION, message.reset().uint64(LOCATION_ID, id).uint64(LOCATION_MAPPING_ID, MAPPING)
                        .message(LOCATION_LINE, inner));
            }
            for (int id = 1; id <= frames.size(); id++) {
                int name = string(frames.get(id - 1).name());
                end(PROFILE_FUNCTION, message.reset().uint64(FUNCTION_ID, id).int64(FUNCTION_NAME, name)
                        .int64(FUNCTION_SYSTEM_NAME, name)
                        .int64(FUNCTION_FILENAME, 0));  // "": no source file names in our frames
            }

            Window window = window();
            top.int64(PROFILE_TIME_NANOS, epochNanos(window.start()));
            top.int64(PROFILE_DURATION_NANOS, Math.max(0, nanos(Duration.between(window.start(), window.end()))));
            valueType(PROFILE_PERIOD_TYPE, cpu, nanoseconds);
            top.int64(PROFILE_PERIOD, periodNanos);
            String detail = profile.recording().engineDetail();
            top.int64(PROFILE_COMMENT, string("cpuprofiler profile " + profile.id() + " (" + profile.trigger()
                    + ", " + profile.recording().engine() + (detail == null ? "" : " " + detail)
                    + ", lookback=" + view.lookback().id() + ")" + role));
            top.int64(PROFILE_DEFAULT_SAMPLE_TYPE, cpu);
            // Last: every string is known once the rest is written (pprof reads the fields in any order).
            for (String s : strings) {
                top.string(PROFILE_STRING_TABLE, s);
            }
            top.flushTo(out);
        }

        /**
         * One sample per node with self weight. The tree is in preorder, so the path to a node is the last node seen
         * at each depth above it: {@code path[d]} keeps its location id, 0 for a group, whose label
         * ({@link #groupLabel}) {@code labels[d]} keeps instead.
         */
        private void writeSamples(long periodNanos) throws IOException {
            int[] path = new int[tree.maxDepth() + 1];
            int[][] labels = new int[tree.maxDepth() + 1][];
            long[] leafFirst = new long[tree.maxDepth() + 1];
            for (int node = 1; node < tree.size(); node++) {
                int depth = tree.depth(node);
                FrameKind kind = tree.kind(node);
                labels[depth] = kind.isGroup() ? groupLabel(kind, tree.frame(node), labels[1]) : null;
                path[depth] = kind.isGroup() ? 0 : frameId(tree.frame(node), kind);
                long self = tree.self(node);
                if (self <= 0) {
                    continue;
                }
                int locations = 0;
                for (int d = depth; d >= 1; d--) {  // leaf first, as pprof expects
                    if (path[d] != 0) {
                        leafFirst[locations++] = path[d];
                    }
                }
                ProtoMessage sample = message.reset().packedInt64(SAMPLE_LOCATION_ID, leafFirst, locations)
                        .packedInt64(SAMPLE_VALUE, self, multiplySaturated(self, periodNanos));
                for (int d = 1; d <= depth; d++) {
                    for (int i = 0; path[d] == 0 && labels[d] != null && i < labels[d].length; i += 2) {
                        sample.message(SAMPLE_LABEL, inner.reset().int64(LABEL_KEY, labels[d][i])
                                .int64(LABEL_STR, labels[d][i + 1]));
                    }
                }
                end(PROFILE_SAMPLE, message);
            }
        }

        /**
         * A group's labels, key and value string ids in turn: {@code thread} or {@code endpoint} its name; a span
         * {@code span_id} and {@code span_name}, the labels of Pyroscope's span profiles (its Java and Go
         * integrations label the local root span: its id and its name, here the endpoint's, {@code top} the
         * first-level group's labels); a trace none.
         */
        private int[] groupLabel(FrameKind kind, String name, int[] top) {
            return switch (kind) {
                case THREAD -> new int[] {string("thread"), string(name)};
                case ENDPOINT -> new int[] {string("endpoint"), string(name)};
                case SPAN -> top == null ? new int[] {string("span_id"), string(name)}
                        : new int[] {string("span_id"), string(name), string("span_name"), top[1]};
                default -> new int[0];
            };
        }

        /** The time the view covers: the look-back's part starts before the session. */
        private Window window() {
            LookbackSnapshot lookback = profile.lookback();
            Instant start = profile.recording().startedAt();
            Instant end = profile.recording().endedAt();
            if (lookback != null && view.lookback() == LookbackView.ONLY) {
                return new Window(lookback.startedAt(), lookback.endedAt());
            }
            if (lookback != null && view.lookback() == LookbackView.INCLUDE && lookback.startedAt().isBefore(start)) {
                start = lookback.startedAt();
            }
            return new Window(start, end);
        }

        private record Window(Instant start, Instant end) {
        }

        private int frameId(String name, FrameKind kind) {
            return frameIds.computeIfAbsent(new FrameKey(name, kind), key -> {
                frames.add(key);
                return frames.size();
            });
        }

        private int string(String s) {
            return stringIds.computeIfAbsent(s, key -> {
                strings.add(key);
                return strings.size() - 1;
            });
        }

        private void valueType(int field, int type, int unit) throws IOException {
            end(field, message.reset().int64(VALUE_TYPE_TYPE, type).int64(VALUE_TYPE_UNIT, unit));
        }

        /** Writes a message built in {@code message} as a length-delimited field of the profile. */
        private void end(int field, ProtoMessage message) throws IOException {
            top.message(field, message).flushTo(out);
        }
    }

    /** Frames merge by name and kind in the tree; a native and a Java frame of one name stay two functions. */
    private record FrameKey(String name, FrameKind kind) {
    }

    private static long epochNanos(Instant t) {
        return multiplySaturated(t.getEpochSecond(), 1_000_000_000L) + t.getNano();
    }

    private static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private static long multiplySaturated(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        if ((high == 0 && low >= 0) || (high == -1 && low < 0)) {
            return low;
        }
        return (a < 0) == (b < 0) ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
}
