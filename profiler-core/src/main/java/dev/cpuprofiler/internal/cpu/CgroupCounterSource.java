package dev.cpuprofiler.internal.cpu;

/**
 * A cgroup's CPU-time counter, read from one file in its directory: what the cgroup v1 and v2 sources share (the file
 * kept open, its path as the description, closing it). Each version says only how to parse its file.
 */
abstract class CgroupCounterSource implements CpuUsageSource {

    private final CpuSourceKind kind;
    final CounterFile file;

    CgroupCounterSource(CpuSourceKind kind, CounterFile file) {
        this.kind = kind;
        this.file = file;
    }

    @Override
    public final CpuSourceKind kind() {
        return kind;
    }

    @Override
    public final String description() {
        return file.path().toString();
    }

    @Override
    public final void close() {
        file.close();
    }

    @Override
    public final String toString() {
        return getClass().getSimpleName() + "[" + description() + "]";
    }
}
