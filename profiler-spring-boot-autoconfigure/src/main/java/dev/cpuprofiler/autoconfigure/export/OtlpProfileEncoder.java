package dev.cpuprofiler.autoconfigure.export;

import com.google.protobuf.ByteString;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.StackTreeSnapshot;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.profiles.v1development.Function;
import io.opentelemetry.proto.profiles.v1development.KeyValueAndUnit;
import io.opentelemetry.proto.profiles.v1development.Line;
import io.opentelemetry.proto.profiles.v1development.Link;
import io.opentelemetry.proto.profiles.v1development.Location;
import io.opentelemetry.proto.profiles.v1development.Mapping;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.ResourceProfiles;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.ScopeProfiles;
import io.opentelemetry.proto.profiles.v1development.Stack;
import io.opentelemetry.proto.profiles.v1development.ValueType;
import io.opentelemetry.proto.resource.v1.Resource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Builds an OTLP {@code ExportProfilesServiceRequest} (schema {@code profiles/v1development}) from a {@link Profile}
 * with the official generated classes. The merged tree (with its look-back part) becomes one sample per node with
 * self weight, whose stack is the path from that node up to the root, leaf first as {@code Stack} wants. Frames are
 * interned in the shared dictionary: one string, one function and one location per distinct frame name, one stack
 * per distinct path; every table starts with its zero value, as the schema requires.
 */
final class OtlpProfileEncoder {

    static final String SCOPE = "dev.cpuprofiler";

    private OtlpProfileEncoder() {
    }

    static ExportProfilesServiceRequest encode(Profile profile, String serviceName,
            Map<String, String> resourceAttributes) {
        Dictionary d = new Dictionary();
        StackTreeSnapshot tree = profile.tree(LookbackView.INCLUDE);
        Instant from = profile.lookback() != null && profile.lookback().startedAt().isBefore(profile.startedAt())
                ? profile.lookback().startedAt() : profile.startedAt();
        Duration period = profile.samplingPeriod() == null ? Duration.ofMillis(10) : profile.samplingPeriod();

        io.opentelemetry.proto.profiles.v1development.Profile.Builder p =
                io.opentelemetry.proto.profiles.v1development.Profile.newBuilder()
                        // Samples counted in the session's sampling period, CPU time being what the period measures
                        // (the OpenTelemetry eBPF profiler's convention for CPU profiles).
                        .setSampleType(valueType(d, "samples", "count"))
                        .setPeriodType(valueType(d, "cpu", "nanoseconds"))
                        .setPeriod(period.toNanos())
                        .setTimeUnixNano(from.getEpochSecond() * 1_000_000_000L + from.getNano())
                        .setDurationNano(Math.max(0, Duration.between(from, profile.endedAt()).toNanos()))
                        .setProfileId(profileId(profile.id()))
                        .addAttributeIndices(d.attribute("profile.trigger",
                                profile.trigger().name().toLowerCase(Locale.ROOT)))
                        .addAttributeIndices(d.attribute("profile.engine", profile.engine()))
                        .addAttributeIndices(d.attribute("profile.id", profile.id()));
        for (int node = 1; node < tree.size(); node++) {
            long self = tree.self(node);
            if (self <= 0) {
                continue;
            }
            List<Integer> locations = new ArrayList<>(tree.depth(node));
            for (int n = node; n > 0; n = tree.parent(n)) {
                locations.add(d.location(tree.frame(n)));
            }
            p.addSamples(Sample.newBuilder().setStackIndex(d.stack(locations)).addValues(self));
        }

        Resource.Builder resource = Resource.newBuilder().addAttributes(keyValue("service.name", serviceName));
        resourceAttributes.forEach((k, v) -> resource.addAttributes(keyValue(k, v)));
        return ExportProfilesServiceRequest.newBuilder()
                .addResourceProfiles(ResourceProfiles.newBuilder()
                        .setResource(resource)
                        .addScopeProfiles(ScopeProfiles.newBuilder()
                                .setScope(InstrumentationScope.newBuilder().setName(SCOPE))
                                .addProfiles(p)))
                .setDictionary(d.build())
                .build();
    }

    private static ValueType valueType(Dictionary d, String type, String unit) {
        return ValueType.newBuilder().setTypeStrindex(d.string(type)).setUnitStrindex(d.string(unit)).build();
    }

    /** 16 bytes, never all zero, the same for the same profile id (a retried push is recognisably the same). */
    private static ByteString profileId(String id) {
        UUID uuid = UUID.nameUUIDFromBytes(id.getBytes(StandardCharsets.UTF_8));
        return ByteString.copyFrom(ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits()).array());
    }

    private static KeyValue keyValue(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    /** The shared tables, each with its zero value at index 0. */
    private static final class Dictionary {

        private final ProfilesDictionary.Builder tables = ProfilesDictionary.newBuilder()
                .addMappingTable(Mapping.getDefaultInstance())
                .addLocationTable(Location.getDefaultInstance())
                .addFunctionTable(Function.getDefaultInstance())
                .addLinkTable(Link.newBuilder().setTraceId(ByteString.copyFrom(new byte[16]))
                        .setSpanId(ByteString.copyFrom(new byte[8])))
                .addStringTable("")
                .addAttributeTable(KeyValueAndUnit.getDefaultInstance())
                .addStackTable(Stack.getDefaultInstance());
        private final Map<String, Integer> strings = new HashMap<>(Map.of("", 0));
        private final Map<String, Integer> locations = new HashMap<>();
        private final Map<List<Integer>, Integer> stacks = new HashMap<>();

        int string(String s) {
            return strings.computeIfAbsent(s, k -> {
                tables.addStringTable(k);
                return tables.getStringTableCount() - 1;
            });
        }

        /** One function and one location (one line, no mapping) per frame name. */
        int location(String frame) {
            Integer known = locations.get(frame);
            if (known != null) {
                return known;
            }
            int name = string(frame);
            tables.addFunctionTable(Function.newBuilder().setNameStrindex(name).setSystemNameStrindex(name));
            int function = tables.getFunctionTableCount() - 1;
            tables.addLocationTable(Location.newBuilder().addLines(Line.newBuilder().setFunctionIndex(function)));
            int location = tables.getLocationTableCount() - 1;
            locations.put(frame, location);
            return location;
        }

        int stack(List<Integer> leafFirst) {
            return stacks.computeIfAbsent(leafFirst, k -> {
                tables.addStackTable(Stack.newBuilder().addAllLocationIndices(k));
                return tables.getStackTableCount() - 1;
            });
        }

        int attribute(String key, String value) {
            tables.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(string(key))
                    .setValue(AnyValue.newBuilder().setStringValue(value)));
            return tables.getAttributeTableCount() - 1;
        }

        ProfilesDictionary build() {
            return tables.build();
        }
    }
}
