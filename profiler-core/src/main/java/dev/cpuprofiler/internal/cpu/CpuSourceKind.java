package dev.cpuprofiler.internal.cpu;

/** Which counter a CPU reading comes from; {@link #id()} is what the endpoint reports. */
public enum CpuSourceKind {
    CGROUP_V2("cgroup-v2"),
    CGROUP_V1("cgroup-v1"),
    PROCESS("process");

    private final String id;

    CpuSourceKind(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
