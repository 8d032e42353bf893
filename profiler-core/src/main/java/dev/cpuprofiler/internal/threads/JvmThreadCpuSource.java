package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuBreakdown;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The fallback where there is no {@code /proc/self/task}: the Java threads' CPU time from a {@link ThreadCpuReader}.
 * HotSpot's GC and compiler threads are not Java threads (or are hidden), so their time is not here; a breakdown
 * from this source shows it as unattributed.
 */
final class JvmThreadCpuSource implements TaskCpuSource {

    private final ThreadCpuReader reader;

    JvmThreadCpuSource(ThreadCpuReader reader) {
        this.reader = Objects.requireNonNull(reader, "reader");
    }

    @Override
    public String id() {
        return CpuBreakdown.SOURCE_JVM;
    }

    @Override
    public TaskCpuSnapshot snapshot() throws IOException {
        if (!reader.available()) {
            throw new IOException("this JVM cannot measure per-thread CPU time");
        }
        long[] ids = reader.threadIds();
        long[] cpu = reader.cpuTimes(ids);
        String[] names = reader.names(ids);
        Map<Long, TaskCpuSnapshot.TaskCpu> tasks = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (cpu[i] >= 0 && names[i] != null) { // -1 / null: ended between the listing and the reads
                tasks.put(ids[i], new TaskCpuSnapshot.TaskCpu(names[i], cpu[i]));
            }
        }
        return new TaskCpuSnapshot(tasks, 0);
    }
}
