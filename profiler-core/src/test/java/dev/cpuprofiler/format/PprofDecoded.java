package dev.cpuprofiler.format;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * A gzipped pprof profile read back with protobuf-java's {@link CodedInputStream} and the field numbers of pprof's
 * {@code profile.proto} (a copy is in this module's test resources, {@code pprof/profile.proto}): written
 * independently of {@link PprofFormat}, it checks every reference resolves (string indices, location and function
 * ids) and turns samples into leaf-first frame names.
 */
record PprofDecoded(List<String> sampleTypes, String periodType, long period, long timeNanos, long durationNanos,
        String defaultSampleType, List<String> comments, List<Sample> samples, int functions, int locations) {

    /** A sample: its frames leaf first, its values, and its labels. */
    record Sample(List<String> framesLeafFirst, List<Long> values, Map<String, String> labels) {
        String leaf() {
            return framesLeafFirst.get(0);
        }
    }

    static PprofDecoded decode(byte[] gzipped) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
            return decodeRaw(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static PprofDecoded decodeRaw(byte[] bytes) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        List<long[]> sampleTypes = new ArrayList<>();
        List<byte[]> samples = new ArrayList<>();
        Map<Long, Long> locationFunction = new HashMap<>();
        Map<Long, Long> functionName = new HashMap<>();
        List<String> strings = new ArrayList<>();
        long[] periodType = null;
        long period = 0;
        long time = 0;
        long duration = 0;
        long defaultType = 0;
        List<Long> comments = new ArrayList<>();
        int mappings = 0;
        for (int tag; (tag = in.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> sampleTypes.add(valueType(in.readByteArray()));
                case 2 -> samples.add(in.readByteArray());
                case 3 -> {
                    in.readByteArray();
                    mappings++;
                }
                case 4 -> {
                    CodedInputStream loc = CodedInputStream.newInstance(in.readByteArray());
                    long id = 0;
                    long function = 0;
                    int lines = 0;
                    for (int t; (t = loc.readTag()) != 0; ) {
                        switch (WireFormat.getTagFieldNumber(t)) {
                            case 1 -> id = loc.readUInt64();
                            case 4 -> {
                                CodedInputStream line = CodedInputStream.newInstance(loc.readByteArray());
                                for (int lt; (lt = line.readTag()) != 0; ) {
                                    if (WireFormat.getTagFieldNumber(lt) == 1) {
                                        function = line.readUInt64();
                                    } else {
                                        line.skipField(lt);
                                    }
                                }
                                lines++;
                            }
                            default -> loc.skipField(t);
                        }
                    }
                    if (id == 0 || lines != 1 || locationFunction.put(id, function) != null) {
                        throw new IllegalStateException("bad location " + id + " with " + lines + " lines");
                    }
                }
                case 5 -> {
                    CodedInputStream fn = CodedInputStream.newInstance(in.readByteArray());
                    long id = 0;
                    long name = 0;
                    long systemName = -1;
                    for (int t; (t = fn.readTag()) != 0; ) {
                        switch (WireFormat.getTagFieldNumber(t)) {
                            case 1 -> id = fn.readUInt64();
                            case 2 -> name = fn.readInt64();
                            case 3 -> systemName = fn.readInt64();
                            default -> fn.skipField(t);
                        }
                    }
                    if (id == 0 || systemName != name || functionName.put(id, name) != null) {
                        throw new IllegalStateException("bad function " + id);
                    }
                }
                case 6 -> strings.add(in.readString());
                case 9 -> time = in.readInt64();
                case 10 -> duration = in.readInt64();
                case 11 -> periodType = valueType(in.readByteArray());
                case 12 -> period = in.readInt64();
                case 13 -> comments.add(in.readInt64());
                case 14 -> defaultType = in.readInt64();
                default -> in.skipField(tag);
            }
        }
        if (strings.isEmpty() || !strings.get(0).isEmpty()) {
            throw new IllegalStateException("string_table[0] must be \"\"");
        }
        if (mappings != 1) {
            throw new IllegalStateException(mappings + " mappings");
        }
        List<Sample> decoded = new ArrayList<>();
        for (byte[] s : samples) {
            decoded.add(sample(s, strings, locationFunction, functionName));
        }
        List<String> types = sampleTypes.stream().map(t -> strings.get((int) t[0]) + "/" + strings.get((int) t[1]))
                .toList();
        return new PprofDecoded(types, strings.get((int) periodType[0]) + "/" + strings.get((int) periodType[1]),
                period, time, duration, strings.get((int) defaultType),
                comments.stream().map(c -> strings.get(c.intValue())).toList(), decoded, functionName.size(),
                locationFunction.size());
    }

    private static Sample sample(byte[] bytes, List<String> strings, Map<Long, Long> locationFunction,
            Map<Long, Long> functionName) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        List<Long> locations = new ArrayList<>();
        List<Long> values = new ArrayList<>();
        Map<String, String> labels = new LinkedHashMap<>();
        for (int tag; (tag = in.readTag()) != 0; ) {
            int field = WireFormat.getTagFieldNumber(tag);
            boolean packed = WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED;
            if (field == 1 || field == 2) {
                List<Long> target = field == 1 ? locations : values;
                if (packed) {
                    int limit = in.pushLimit(in.readRawVarint32());
                    while (in.getBytesUntilLimit() > 0) {
                        target.add(field == 1 ? in.readUInt64() : in.readInt64());
                    }
                    in.popLimit(limit);
                } else {
                    target.add(field == 1 ? in.readUInt64() : in.readInt64());
                }
            } else if (field == 3) {
                CodedInputStream label = CodedInputStream.newInstance(in.readByteArray());
                long key = 0;
                long str = 0;
                for (int t; (t = label.readTag()) != 0; ) {
                    switch (WireFormat.getTagFieldNumber(t)) {
                        case 1 -> key = label.readInt64();
                        case 2 -> str = label.readInt64();
                        default -> label.skipField(t);
                    }
                }
                labels.put(strings.get((int) key), strings.get((int) str));
            } else {
                in.skipField(tag);
            }
        }
        List<String> frames = locations.stream().map(l -> {
            Long function = locationFunction.get(l);
            if (function == null || !functionName.containsKey(function)) {
                throw new IllegalStateException("location " + l + " does not resolve");
            }
            return strings.get(functionName.get(function).intValue());
        }).toList();
        return new Sample(frames, values, labels);
    }

    private static long[] valueType(byte[] bytes) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        long[] typeUnit = new long[2];
        for (int tag; (tag = in.readTag()) != 0; ) {
            int field = WireFormat.getTagFieldNumber(tag);
            if (field == 1 || field == 2) {
                typeUnit[field - 1] = in.readInt64();
            } else {
                in.skipField(tag);
            }
        }
        return typeUnit;
    }

    /** Sum of value {@code index} over the samples whose leaf is {@code leaf}. */
    long leafTotal(String leaf, int index) {
        return samples.stream().filter(s -> s.leaf().equals(leaf)).mapToLong(s -> s.values().get(index)).sum();
    }

    long total(int index) {
        return samples.stream().mapToLong(s -> s.values().get(index)).sum();
    }
}
