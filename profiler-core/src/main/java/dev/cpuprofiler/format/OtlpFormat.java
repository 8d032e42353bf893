package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.StackTreeSnapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * An OTLP {@code ExportProfilesServiceRequest} (schema {@code profiles/v1development}, opentelemetry-proto 1.11):
 * what a collector takes at {@code /v1development/profiles}. The tree in the view becomes one sample per node with
 * self weight, whose stack is the path from that node up to the root, leaf first as {@code Stack} wants. Frames are
 * interned in the shared dictionary: one string, one function and one location per distinct frame name, one stack per
 * distinct path; every table starts with its zero value, as the schema requires. Written with {@link ProtoMessage}
 * and the schema's field numbers, like pprof. The tree's groups are attributes, not frames: {@code thread.name} or
 * {@code endpoint}; a traced request's samples carry {@code span_id} and {@code span_name} too, as pprof's labels,
 * and a {@code Link} to the trace and span.
 */
final class OtlpFormat extends FormatBase {

    /** The instrumentation scope named in the request. */
    static final String SCOPE = "dev.cpuprofiler";

    // opentelemetry-proto, profiles/v1development and the messages it uses: field numbers.
    private static final int REQUEST_RESOURCE_PROFILES = 1;
    private static final int REQUEST_DICTIONARY = 2;
    private static final int RESOURCE_PROFILES_RESOURCE = 1;
    private static final int RESOURCE_PROFILES_SCOPE_PROFILES = 2;
    private static final int RESOURCE_ATTRIBUTES = 1;
    private static final int SCOPE_PROFILES_SCOPE = 1;
    private static final int SCOPE_PROFILES_PROFILES = 2;
    private static final int SCOPE_NAME = 1;
    private static final int PROFILE_SAMPLE_TYPE = 1;
    private static final int PROFILE_SAMPLES = 2;
    private static final int PROFILE_TIME_UNIX_NANO = 3;
    private static final int PROFILE_DURATION_NANO = 4;
    private static final int PROFILE_PERIOD_TYPE = 5;
    private static final int PROFILE_PERIOD = 6;
    private static final int PROFILE_PROFILE_ID = 7;
    private static final int PROFILE_ATTRIBUTE_INDICES = 11;
    private static final int VALUE_TYPE_TYPE = 1;
    private static final int VALUE_TYPE_UNIT = 2;
    private static final int SAMPLE_STACK_INDEX = 1;
    private static final int SAMPLE_ATTRIBUTE_INDICES = 2;
    private static final int SAMPLE_LINK_INDEX = 3;
    private static final int SAMPLE_VALUES = 4;
    private static final int DICTIONARY_MAPPING = 1;
    private static final int DICTIONARY_LOCATION = 2;
    private static final int DICTIONARY_FUNCTION = 3;
    private static final int DICTIONARY_LINK = 4;
    private static final int DICTIONARY_STRING = 5;
    private static final int DICTIONARY_ATTRIBUTE = 6;
    private static final int DICTIONARY_STACK = 7;
    private static final int LOCATION_LINES = 3;
    private static final int LINE_FUNCTION_INDEX = 1;
    private static final int FUNCTION_NAME = 1;
    private static final int FUNCTION_SYSTEM_NAME = 2;
    private static final int LINK_TRACE_ID = 1;
    private static final int LINK_SPAN_ID = 2;
    private static final int STACK_LOCATION_INDICES = 1;
    private static final int KEY_VALUE_KEY = 1;
    private static final int KEY_VALUE_VALUE = 2;
    private static final int KEY_VALUE_AND_UNIT_KEY = 1;
    private static final int KEY_VALUE_AND_UNIT_VALUE = 2;
    private static final int ANY_VALUE_STRING = 1;

    private final String serviceName;
    private final Map<String, String> resourceAttributes;

    OtlpFormat(String serviceName, Map<String, String> resourceAttributes) {
        super("otlp", "application/x-protobuf", ".otlp.pb");
        this.serviceName = Objects.requireNonNull(serviceName, "serviceName");
        this.resourceAttributes = Map.copyOf(resourceAttributes);
    }

    @Override
    public void write(Profile profile, ProfileView view, OutputStream out) throws IOException {
        Dictionary d = new Dictionary();
        StackTreeSnapshot tree = view.labelled(profile).labelledTree(profile);
        Profile.Recording recording = profile.recording();
        Instant from = profile.lookback() != null && profile.lookback().startedAt().isBefore(recording.startedAt())
                ? profile.lookback().startedAt() : recording.startedAt();
        Duration period = recording.samplingPeriod() == null ? Duration.ofMillis(10) : recording.samplingPeriod();

        // Samples counted in the session's sampling period, CPU time being what the period measures (the
        // OpenTelemetry eBPF profiler's convention for CPU profiles).
        ProtoMessage p = new ProtoMessage();
        p.message(PROFILE_SAMPLE_TYPE, valueType(d, "samples", "count"));
        for (int node = 1; node < tree.size(); node++) {
            long self = tree.self(node);
            if (self <= 0) {
                continue;
            }
            List<Integer> locations = new ArrayList<>(tree.depth(node));
            List<Integer> attributes = new ArrayList<>();
            String group = null;
            String traceId = null;
            String spanId = null;
            for (int n = node; n > 0; n = tree.parent(n)) {
                String name = tree.frame(n);
                switch (tree.kind(n)) {  // a group is an attribute (a span also a link), not a frame
                    case THREAD -> attributes.add(0, d.attribute("thread.name", group = name));
                    case ENDPOINT -> attributes.add(0, d.attribute("endpoint", group = name));
                    case TRACE -> traceId = name;
                    case SPAN -> spanId = name;
                    default -> locations.add(d.location(name));
                }
            }
            if (spanId != null) {
                attributes.add(d.attribute("span_id", spanId));
                if (group != null) {
                    attributes.add(d.attribute("span_name", group));
                }
            }
            ProtoMessage sample = new ProtoMessage().int32(SAMPLE_STACK_INDEX, d.stack(locations));
            if (!attributes.isEmpty()) {
                sample.packedInt32(SAMPLE_ATTRIBUTE_INDICES, attributes);
            }
            if (traceId != null && spanId != null) {
                sample.int32(SAMPLE_LINK_INDEX, d.link(traceId, spanId));
            }
            p.message(PROFILE_SAMPLES, sample.packedInt64(SAMPLE_VALUES, self));
        }
        p.fixed64(PROFILE_TIME_UNIX_NANO, from.getEpochSecond() * 1_000_000_000L + from.getNano())
                .uint64(PROFILE_DURATION_NANO, Math.max(0, Duration.between(from, recording.endedAt()).toNanos()))
                .message(PROFILE_PERIOD_TYPE, valueType(d, "cpu", "nanoseconds"))
                .int64(PROFILE_PERIOD, period.toNanos())
                .bytes(PROFILE_PROFILE_ID, profileId(profile.id()))
                .packedInt32(PROFILE_ATTRIBUTE_INDICES, List.of(
                        d.attribute("profile.trigger", profile.trigger().name().toLowerCase(Locale.ROOT)),
                        d.attribute("profile.engine", recording.engine().id()),
                        d.attribute("profile.id", profile.id())));

        ProtoMessage resource = new ProtoMessage().message(RESOURCE_ATTRIBUTES, keyValue("service.name", serviceName));
        resourceAttributes.forEach((k, v) -> resource.message(RESOURCE_ATTRIBUTES, keyValue(k, v)));
        ProtoMessage request = new ProtoMessage()
                .message(REQUEST_RESOURCE_PROFILES, new ProtoMessage()
                        .message(RESOURCE_PROFILES_RESOURCE, resource)
                        .message(RESOURCE_PROFILES_SCOPE_PROFILES, new ProtoMessage()
                                .message(SCOPE_PROFILES_SCOPE, new ProtoMessage().string(SCOPE_NAME, SCOPE))
                                .message(SCOPE_PROFILES_PROFILES, p)))
                .message(REQUEST_DICTIONARY, d.build());
        out.write(request.toByteArray());
    }

    private static ProtoMessage valueType(Dictionary d, String type, String unit) {
        return new ProtoMessage().int32(VALUE_TYPE_TYPE, d.string(type)).int32(VALUE_TYPE_UNIT, d.string(unit));
    }

    /** 16 bytes, never all zero, the same for the same profile id (a retried push is recognisably the same). */
    private static byte[] profileId(String id) {
        UUID uuid = UUID.nameUUIDFromBytes(id.getBytes(StandardCharsets.UTF_8));
        return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits())
                .array();
    }

    private static ProtoMessage keyValue(String key, String value) {
        return new ProtoMessage().string(KEY_VALUE_KEY, key)
                .message(KEY_VALUE_VALUE, new ProtoMessage().string(ANY_VALUE_STRING, value));
    }

    /** The shared tables, each with its zero value at index 0. */
    private static final class Dictionary {

        private final List<String> strings = new ArrayList<>(List.of(""));
        private final Map<String, Integer> stringIds = new HashMap<>(Map.of("", 0));
        /** Location index by frame name; function i + 1 and location i + 1 belong together. */
        private final Map<String, Integer> locations = new HashMap<>();
        private final List<Integer> functionNames = new ArrayList<>();
        private final Map<List<Integer>, Integer> stackIds = new HashMap<>();
        private final List<List<Integer>> stacks = new ArrayList<>();
        private final List<ProtoMessage> attributes = new ArrayList<>();
        private final Map<String, Integer> attributeIds = new HashMap<>();
        private final Map<String, Integer> linkIds = new HashMap<>();
        private final List<ProtoMessage> links = new ArrayList<>();

        int string(String s) {
            return stringIds.computeIfAbsent(s, k -> {
                strings.add(k);
                return strings.size() - 1;
            });
        }

        /** One function and one location (one line, no mapping) per frame name. */
        int location(String frame) {
            Integer known = locations.get(frame);
            if (known != null) {
                return known;
            }
            functionNames.add(string(frame));
            int location = functionNames.size();
            locations.put(frame, location);
            return location;
        }

        int stack(List<Integer> leafFirst) {
            return stackIds.computeIfAbsent(leafFirst, k -> {
                stacks.add(k);
                return stacks.size();
            });
        }

        int attribute(String key, String value) {
            return attributeIds.computeIfAbsent(key + '\u0000' + value, k -> {
                attributes.add(new ProtoMessage().int32(KEY_VALUE_AND_UNIT_KEY, string(key))
                        .message(KEY_VALUE_AND_UNIT_VALUE, new ProtoMessage().string(ANY_VALUE_STRING, value)));
                return attributes.size();
            });
        }

        /** A link to a trace's span: ids in hex, a 64-bit trace id widened to 128 bits as W3C trace context does. */
        int link(String traceId, String spanId) {
            return linkIds.computeIfAbsent(traceId + ' ' + spanId, k -> {
                links.add(new ProtoMessage().bytes(LINK_TRACE_ID, hex(traceId, 16)).bytes(LINK_SPAN_ID, hex(spanId, 8)));
                return links.size();
            });
        }

        private static byte[] hex(String id, int bytes) {
            byte[] out = new byte[bytes];
            String padded = "0".repeat(Math.max(0, bytes * 2 - id.length())) + id;
            for (int i = 0; i < bytes && 2 * i + 2 <= padded.length(); i++) {
                out[i] = (byte) (Math.max(0, Character.digit(padded.charAt(2 * i), 16)) << 4
                        | Math.max(0, Character.digit(padded.charAt(2 * i + 1), 16)));
            }
            return out;
        }

        ProtoMessage build() {
            ProtoMessage d = new ProtoMessage();
            d.message(DICTIONARY_MAPPING, new ProtoMessage());
            d.message(DICTIONARY_LOCATION, new ProtoMessage());
            d.message(DICTIONARY_FUNCTION, new ProtoMessage());
            for (int i = 0; i < functionNames.size(); i++) {
                int name = functionNames.get(i);
                d.message(DICTIONARY_FUNCTION, new ProtoMessage().int32(FUNCTION_NAME, name)
                        .int32(FUNCTION_SYSTEM_NAME, name));
                d.message(DICTIONARY_LOCATION, new ProtoMessage().message(LOCATION_LINES,
                        new ProtoMessage().int32(LINE_FUNCTION_INDEX, i + 1)));
            }
            d.message(DICTIONARY_LINK, new ProtoMessage().bytes(LINK_TRACE_ID, new byte[16])
                    .bytes(LINK_SPAN_ID, new byte[8]));
            links.forEach(l -> d.message(DICTIONARY_LINK, l));
            strings.forEach(s -> d.string(DICTIONARY_STRING, s));
            d.message(DICTIONARY_ATTRIBUTE, new ProtoMessage());
            attributes.forEach(a -> d.message(DICTIONARY_ATTRIBUTE, a));
            d.message(DICTIONARY_STACK, new ProtoMessage());
            stacks.forEach(s -> d.message(DICTIONARY_STACK, new ProtoMessage().packedInt32(STACK_LOCATION_INDICES, s)));
            return d;
        }
    }
}
