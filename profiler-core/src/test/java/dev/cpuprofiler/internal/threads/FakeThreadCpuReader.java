package dev.cpuprofiler.internal.threads;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Scripted threads: the test sets each one's CPU time and name; every read is recorded. */
final class FakeThreadCpuReader implements ThreadCpuReader {

    private final Map<Long, long[]> cpu = new LinkedHashMap<>(); // id -> {cpuNanos}
    private final Map<Long, String> names = new LinkedHashMap<>();
    private final List<long[]> cpuReads = new ArrayList<>();
    private final List<long[]> nameReads = new ArrayList<>();
    private int listings;
    private long started;
    private long processCpu;

    void start(long id, String name) {
        started++;
        cpu.put(id, new long[] {0});
        names.put(id, name);
    }

    void end(long id) {
        cpu.remove(id);
        names.remove(id);
    }

    void rename(long id, String name) {
        names.put(id, name);
    }

    void burn(long id, long nanos) {
        cpu.get(id)[0] += nanos;
        processCpu += nanos;
    }

    /** All CPU burned so far, by threads alive or ended: what the process's CPU counter would say. */
    long processCpu() {
        return processCpu;
    }

    /** The ids read by each cpuTimes call so far, then forgets them. */
    List<long[]> takeCpuReads() {
        List<long[]> r = new ArrayList<>(cpuReads);
        cpuReads.clear();
        return r;
    }

    /** Whether the last cpuTimes call read this thread. */
    boolean lastReadIncluded(long id) {
        return !cpuReads.isEmpty() && Arrays.stream(cpuReads.get(cpuReads.size() - 1)).anyMatch(x -> x == id);
    }

    List<long[]> nameReads() {
        return nameReads;
    }

    int listings() {
        return listings;
    }

    @Override
    public boolean available() {
        return true;
    }

    @Override
    public long[] threadIds() {
        listings++;
        return cpu.keySet().stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public long startedThreadCount() {
        return started;
    }

    @Override
    public long liveThreadCount() {
        return cpu.size();
    }

    @Override
    public long[] cpuTimes(long[] ids) {
        cpuReads.add(ids.clone());
        long[] out = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            long[] c = cpu.get(ids[i]);
            out[i] = c == null ? -1 : c[0];
        }
        return out;
    }

    @Override
    public String[] names(long[] ids) {
        nameReads.add(ids.clone());
        String[] out = new String[ids.length];
        for (int i = 0; i < ids.length; i++) {
            out[i] = names.get(ids[i]);
        }
        return out;
    }
}
