package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.FrameKind;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Interns frames: each distinct normalized (name, kind family) gets a small int id, so tree nodes hold an int instead
 * of a String and children are found by int comparison. A raw-name cache in front (open addressing, no boxing)
 * makes the normalizing regular expressions run once per distinct raw name.
 *
 * <p>A resolved frame is "packed": {@code id << 4 | kind.ordinal()}. Java and inlined frames of the same method
 * share an id (they are the same code; whether the JIT inlined it varies between samples) but keep their kind.
 */
final class FrameTable {

    static final int MISSING = -1;
    static final int ROOT_ID = 0;
    static final int TRUNCATED_ID = 1;
    static final int NO_STACK_ID = 2;
    private static final FrameKind[] KINDS = FrameKind.values();
    private static final int KIND_BITS = 4;
    private static final int KIND_MASK = (1 << KIND_BITS) - 1;

    private String[] names = new String[64];
    private int size;
    private final Map<NameKey, Integer> ids = new HashMap<>();

    // Raw cache: (raw name, kind) -> packed, linear probing.
    private String[] rawNames = new String[1024];
    private byte[] rawKinds = new byte[1024];
    private int[] rawPacked = new int[1024];
    private int rawSize;
    private final int rawLimit;

    private final Map<String, Integer> threads = new HashMap<>();
    private final int threadLimit;

    FrameTable(int maxNodes) {
        this.rawLimit = Math.max(1024, maxNodes);
        this.threadLimit = 4096;
        add("all", FrameKind.UNKNOWN);
        add(StackTree.TRUNCATED, FrameKind.UNKNOWN);
        add(StackTree.NO_STACK, FrameKind.UNKNOWN);
    }

    static int id(int packed) {
        return packed >>> KIND_BITS;
    }

    static byte kind(int packed) {
        return (byte) (packed & KIND_MASK);
    }

    static int pack(int id, FrameKind kind) {
        return id << KIND_BITS | kind.ordinal();
    }

    static FrameKind kindOf(byte ordinal) {
        return KINDS[ordinal];
    }

    int size() {
        return size;
    }

    String name(int id) {
        return names[id];
    }

    /** A copy of the names by id, for a snapshot. */
    String[] namesCopy() {
        return Arrays.copyOf(names, size);
    }

    /**
     * The packed frame for a raw engine frame, or {@link #MISSING} when it is new and {@code mayAdd} is false
     * (the tree is full, so no node could hold it anyway).
     */
    int resolve(String rawName, FrameKind kind, boolean mayAdd) {
        int k = kind.ordinal();
        int mask = rawNames.length - 1;
        int h = mix(rawName.hashCode() * 31 + k) & mask;
        for (String s; (s = rawNames[h]) != null; h = (h + 1) & mask) {
            if ((s == rawName || s.equals(rawName)) && rawKinds[h] == k) {
                return rawPacked[h];
            }
        }
        Frame normalized = FrameNames.normalize(rawName, kind);
        int packed = intern(normalized.name(), normalized.kind(), mayAdd);
        if (packed != MISSING && rawSize < rawLimit) {
            rawNames[h] = rawName;
            rawKinds[h] = (byte) k;
            rawPacked[h] = packed;
            if (++rawSize * 2 > rawNames.length) {
                growRaw();
            }
        }
        return packed;
    }

    /** The packed frame of the thread group node for a thread name (null: unknown). */
    int resolveThread(String threadName, boolean mayAdd) {
        if (threadName == null) {
            return intern(ThreadNames.UNKNOWN_THREAD, FrameKind.THREAD, mayAdd);
        }
        Integer cached = threads.get(threadName);
        if (cached != null) {
            return cached;
        }
        int packed = intern(ThreadNames.group(threadName), FrameKind.THREAD, mayAdd);
        if (packed != MISSING && threads.size() < threadLimit) {
            threads.put(threadName, packed);
        }
        return packed;
    }

    /** Interns an already normalized name. */
    int intern(String name, FrameKind kind, boolean mayAdd) {
        Integer id = ids.get(new NameKey(name, family(kind)));
        if (id == null) {
            if (!mayAdd) {
                return MISSING;
            }
            id = add(name, kind);
        }
        return pack(id, kind);
    }

    /** Bytes held by the table's own arrays and maps (approximate; the name Strings are shared with the engine). */
    long footprintBytes() {
        long bytes = 16L + names.length * 4L + rawNames.length * (4L + 1 + 4) + 48;
        bytes += ids.size() * 64L + threads.size() * 48L;
        return bytes;
    }

    private int add(String name, FrameKind kind) {
        if (size == names.length) {
            names = Arrays.copyOf(names, size * 2);
        }
        names[size] = name;
        ids.put(new NameKey(name, family(kind)), size);
        return size++;
    }

    private void growRaw() {
        String[] oldNames = rawNames;
        byte[] oldKinds = rawKinds;
        int[] oldPacked = rawPacked;
        int capacity = oldNames.length * 2;
        rawNames = new String[capacity];
        rawKinds = new byte[capacity];
        rawPacked = new int[capacity];
        int mask = capacity - 1;
        for (int i = 0; i < oldNames.length; i++) {
            String s = oldNames[i];
            if (s != null) {
                int h = mix(s.hashCode() * 31 + oldKinds[i]) & mask;
                while (rawNames[h] != null) {
                    h = (h + 1) & mask;
                }
                rawNames[h] = s;
                rawKinds[h] = oldKinds[i];
                rawPacked[h] = oldPacked[i];
            }
        }
    }

    private static FrameKind family(FrameKind kind) {
        return kind == FrameKind.INLINED ? FrameKind.JAVA : kind;
    }

    static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    private record NameKey(String name, FrameKind family) {
    }
}
