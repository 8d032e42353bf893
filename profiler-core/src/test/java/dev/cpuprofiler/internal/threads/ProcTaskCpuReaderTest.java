package dev.cpuprofiler.internal.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cpuprofiler.internal.threads.TaskCpuSource.Snapshot.TaskCpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcTaskCpuReaderTest {

    @TempDir
    Path root;

    @Test
    void readsCommAndSchedstatOfEveryTask() throws IOException {
        new FakeProcTasks(root)
                .task(4242, "java", 120_000_000)
                .task(4243, "GC Thread#0", 35_000_001)
                .task(4250, "C2 CompilerThread0", 900_000_000)
                .task(4300, "http-nio-8080-exec-1", 7);

        TaskCpuSource.Snapshot snapshot = new ProcTaskCpuReader(root).snapshot();

        assertThat(snapshot.tasks()).containsOnly(
                entry(4242, "java", 120_000_000), entry(4243, "GC Thread#0", 35_000_001),
                entry(4250, "C2 CompilerThre", 900_000_000), entry(4300, "http-nio-8080-e", 7));
        assertThat(snapshot.malformed()).isZero();
    }

    @Test
    void fallsBackToStatTicksWhereSchedstatIsMissingOrZero() throws IOException {
        new FakeProcTasks(root)
                .taskWithoutSchedstat(10, "worker", 150, 30)
                .task(11, "no-schedinfo", 0, 4, 1); // schedstat "0 0 1": the kernel keeps no run time

        TaskCpuSource.Snapshot snapshot = new ProcTaskCpuReader(root).snapshot();

        assertThat(snapshot.tasks()).containsOnly(entry(10, "worker", 1_800_000_000L), entry(11, "no-schedinfo", 50_000_000));
    }

    @Test
    void ticksFollowTheGivenClockRate() throws IOException {
        new FakeProcTasks(root).taskWithoutSchedstat(10, "worker", 150, 100);

        assertThat(new ProcTaskCpuReader(root, 250).snapshot().tasks().get(10L).cpuNanos()).isEqualTo(1_000_000_000L);
    }

    @Test
    void statCommMayHoldSpacesAndParentheses() {
        assertThat(ProcTaskCpuReader.parseStatTicks(FakeProcTasks.statLine(7, "(a) b)", 11, 22))).isEqualTo(33);
        assertThat(ProcTaskCpuReader.parseStatTicks(FakeProcTasks.statLine(7, "x) S 1 2 3 4 5 6", 1, 2))).isEqualTo(3);
        assertThat(ProcTaskCpuReader.parseStatTicks(FakeProcTasks.statLine(7, "", 0, 5))).isEqualTo(5);
    }

    @Test
    void schedstatsFirstFieldIsTheRunTime() {
        assertThat(ProcTaskCpuReader.parseSchedstat("2291553163 162397766 4291\n")).isEqualTo(2_291_553_163L);
        assertThat(ProcTaskCpuReader.parseSchedstat("0 0 0\n")).isZero();
    }

    @Test
    void aCommWithSpacesAndACutUtf8SequenceIsKept() throws IOException {
        FakeProcTasks fake = new FakeProcTasks(root).task(5, "pool 1 (io)", 10);
        // "ÄÄÄÄÄÄÄÄ" is 16 bytes in UTF-8: the kernel keeps 15, half of the last Ä.
        byte[] cut = java.util.Arrays.copyOf("ÄÄÄÄÄÄÄÄ".getBytes(java.nio.charset.StandardCharsets.UTF_8), 15);
        fake.task(6, "x", 20);
        Files.write(fake.taskDir().resolve("6/comm"), concat(cut, new byte[] {'\n'}));

        TaskCpuSource.Snapshot snapshot = new ProcTaskCpuReader(root).snapshot();

        assertThat(snapshot.tasks().get(5L).name()).isEqualTo("pool 1 (io)");
        assertThat(snapshot.tasks().get(6L).name()).startsWith("ÄÄÄÄÄÄÄ").hasSize(8);
    }

    @Test
    void aTaskWhoseFilesVanishedIsSkippedAndAMalformedOneCounted() throws IOException {
        FakeProcTasks fake = new FakeProcTasks(root)
                .task(1, "java", 100)
                .task(2, "gone", 200)
                .task(3, "garbled", 300)
                .task(4, "garbled-stat", 0, 0, 0);
        Files.delete(fake.taskDir().resolve("2/comm")); // exited between the listing and the read
        Files.delete(fake.taskDir().resolve("2/schedstat"));
        fake.write(3, "schedstat", "lots\n");
        fake.write(4, "stat", "4 (garbled-stat S 1\n");
        Files.createDirectories(fake.taskDir().resolve("not-a-tid"));

        TaskCpuSource.Snapshot snapshot = new ProcTaskCpuReader(root).snapshot();

        assertThat(snapshot.tasks()).containsOnlyKeys(1L);
        assertThat(snapshot.malformed()).isEqualTo(2);
    }

    @Test
    void noTaskDirectoryIsAnError() {
        assertThatThrownBy(() -> new ProcTaskCpuReader(root).snapshot()).isInstanceOf(IOException.class);
    }

    private static java.util.Map.Entry<Long, TaskCpu> entry(long tid, String name, long nanos) {
        return java.util.Map.entry(tid, new TaskCpu(name, nanos));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
