package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.internal.core.OutputFiles;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import ch.qos.logback.classic.Level;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.JfrRepository;
import dev.cpuprofiler.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.testing.LogCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileStoreTest {

    @TempDir
    Path dir;

    private static int seq;

    static Profile profile(String hotFrame, int distinctStacks, Path jfr) {
        StackTree tree = new StackTree(64, 1_000_000, false);
        for (int i = 0; i < distinctStacks; i++) {
            tree.accept(List.of(Frame.java("app.Main.run"), Frame.java(hotFrame + i)), "main", 3);
        }
        Instant start = Instant.parse("2026-11-22T02:00:00Z").plusSeconds(seq++);
        String id = String.format("20261122T02%04dZ-cpu-%d", seq, seq);
        return new Profile(id, SessionTrigger.CPU, "jfr-execution", "jfr", List.of(), List.of(), start,
                start.plusSeconds(30), Duration.ofMillis(10), tree.totalSamples(), 0, 85.0, tree.snapshot(), jfr, null, null, null);
    }

    @Test
    void keepsTheLastNNewestFirst() {
        ProfileStore store = new ProfileStore(3, Long.MAX_VALUE, null);
        List<Profile> added = Stream.generate(() -> profile("app.Hot.m", 1, null)).limit(5).toList();
        added.forEach(store::add);
        assertThat(store.list()).containsExactly(added.get(4), added.get(3), added.get(2));
        assertThat(store.get(ProfileStore.LATEST)).contains(added.get(4));
        assertThat(store.get(added.get(2).id())).contains(added.get(2));
        assertThat(store.get(added.get(0).id())).isEmpty();
        assertThat(store.get("nope")).isEmpty();
    }

    @Test
    void listenersHearOfEachStoredProfileAndAFailingOneLosesNothing() {
        ProfileStore store = new ProfileStore(3, Long.MAX_VALUE, null);
        List<Profile> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        store.addListener(p -> {
            throw new IllegalStateException("broken listener");
        });
        store.addListener(p -> {
            // The profile is already readable when a listener hears of it.
            assertThat(store.latest()).contains(p);
            heard.add(p);
        });
        Profile first = profile("app.Hot.m", 1, null);
        Profile second = profile("app.Hot.m", 1, null);
        store.add(first);
        store.add(second);
        assertThat(heard).containsExactly(first, second);
        assertThat(store.list()).containsExactly(second, first);
    }

    @Test
    void isBoundedInBytesButAlwaysKeepsTheNewest() {
        Profile big = profile("app.Big.m", 5_000, null);
        ProfileStore store = new ProfileStore(10, big.estimatedBytes() + 1000, null);
        Profile small = profile("app.Small.m", 1, null);
        store.add(small);
        store.add(big);
        assertThat(store.list()).containsExactly(big, small);
        Profile bigger = profile("app.Bigger.m", 20_000, null);
        store.add(bigger);
        assertThat(store.list()).containsExactly(bigger);
        assertThat(store.estimatedBytes()).isEqualTo(bigger.estimatedBytes());
    }

    @Test
    void withoutAnOutputDirectoryTheRecordingIsKeptUntilItsProfileIsDropped() throws IOException {
        Path first = Files.writeString(dir.resolve("first.jfr"), "pretend JFR 1");
        Path second = Files.writeString(dir.resolve("second.jfr"), "pretend JFR 2");
        ProfileStore store = new ProfileStore(1, Long.MAX_VALUE, null);

        Profile stored = store.add(profile("app.Hot.m", 1, first));
        assertThat(stored.jfrFile()).isEqualTo(first).exists();
        assertThat(store.estimatedBytes()).isEqualTo(stored.estimatedBytes() + Files.size(first));

        store.add(profile("app.Hot.m", 1, second));
        assertThat(first).doesNotExist();
        assertThat(second).exists();

        store.close();
        assertThat(second).doesNotExist();
        assertThat(store.latest()).get().extracting(Profile::jfrFile).isNull();
    }

    @Test
    void recordingsCountInTheByteBoundAndNeverCostTheProfile() throws IOException {
        Profile small = profile("app.Hot.m", 1, null);
        long bound = small.estimatedBytes() * 3;
        Path older = Files.write(dir.resolve("older.jfr"), new byte[(int) small.estimatedBytes()]);
        Path huge = Files.write(dir.resolve("huge.jfr"), new byte[(int) bound]);
        ProfileStore store = new ProfileStore(10, bound, null);

        Profile first = store.add(profile("app.Hot.m", 1, older));
        Profile second = store.add(profile("app.Hot.m", 1, null));
        assertThat(store.list()).extracting(Profile::id).containsExactly(second.id(), first.id());

        // Over the bound with its recording even alone: every older profile goes, the newest stays without it.
        Profile third = store.add(profile("app.Hot.m", 1, huge));
        assertThat(third.jfrFile()).isNull();
        assertThat(huge).doesNotExist();
        assertThat(older).doesNotExist();
        assertThat(store.list()).extracting(Profile::id).containsExactly(third.id());
        assertThat(store.estimatedBytes()).isEqualTo(third.estimatedBytes());
    }

    @Test
    void aRecordingOnADiskAtItsFloorIsDeletedAndTheProfileKept() throws IOException {
        Path jfr = Files.writeString(dir.resolve("engine.jfr"), "pretend JFR");
        DiskSpaceGuard full = new DiskSpaceGuard(1024, path -> new DiskSpaceGuard.Space(10, 1_000_000),
                new JfrRepository());
        ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, null, full);

        Profile stored = store.add(profile("app.Hot.m", 1, jfr));

        assertThat(stored.jfrFile()).isNull();
        assertThat(jfr).doesNotExist();
        assertThat(store.latest()).contains(stored);
    }

    @Test
    void writesOwnerOnlyFilesAndKeepsTheJfr() throws IOException {
        Path out = dir.resolve("profiles");
        Path jfr = Files.writeString(dir.resolve("engine.jfr"), "pretend JFR");
        ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, new ProfileFileWriter(out, 5, OutputFiles.standard()));
        Profile p = profile("app.Hot.compute", 1, jfr);

        Profile stored = store.add(p);

        assertThat(Files.getPosixFilePermissions(out)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        Path collapsed = out.resolve(p.id() + ".collapsed.txt");
        Path html = out.resolve(p.id() + ".html");
        assertThat(Files.readString(collapsed)).contains("app.Main.run;app.Hot.compute0 3");
        assertThat(Files.readString(html)).contains("app.Hot.compute0");
        assertThat(stored.jfrFile()).isEqualTo(out.resolve(p.id() + ".jfr"));
        assertThat(Files.readString(stored.jfrFile())).isEqualTo("pretend JFR");
        for (Path f : List.of(collapsed, html, stored.jfrFile())) {
            assertThat(Files.getPosixFilePermissions(f)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        }
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    @Test
    void deletesAllButTheNewestProfilesFilesAndNothingElse() throws IOException {
        Path out = dir.resolve("profiles");
        Files.createDirectories(out);
        Path foreign = Files.writeString(out.resolve("notes.txt"), "the user's own file");
        ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, new ProfileFileWriter(out, 2, OutputFiles.standard()));
        List<Profile> added = Stream.generate(() -> profile("app.Hot.m", 1, null)).limit(4).toList();
        added.forEach(store::add);

        try (Stream<Path> files = Files.list(out)) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted()).containsExactly(
                    added.get(2).id() + ".collapsed.txt", added.get(2).id() + ".html",
                    added.get(3).id() + ".collapsed.txt", added.get(3).id() + ".html", "notes.txt");
        }
        assertThat(foreign).exists();
        assertThat(store.size()).isEqualTo(4);
    }

    @Test
    void aWriteFailureIsLoggedOnceAndTheProfileStaysInMemory() throws IOException {
        // A regular file where the directory should be: every write fails, like a read-only mount.
        Path notADir = Files.writeString(dir.resolve("blocked"), "x");
        ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, new ProfileFileWriter(notADir.resolve("sub"), 5, OutputFiles.standard()));
        try (LogCapture logs = new LogCapture()) {
            for (int i = 0; i < 3; i++) {
                Profile p = profile("app.Hot.m", 2, null);
                assertThatCode(() -> store.add(p)).doesNotThrowAnyException();
                assertThat(store.latest()).contains(p);
            }
            assertThat(logs.messages(Level.WARN)).hasSize(1).first().asString()
                    .contains("stays available in memory");
        }
        assertThat(store.size()).isEqualTo(3);
    }

    @Test
    void nothingIsWrittenWhileTheDiskIsAtTheFloorAndWritingResumesWithSpace() throws IOException {
        java.util.concurrent.atomic.AtomicLong free = new java.util.concurrent.atomic.AtomicLong(5L << 20);
        DiskSpaceGuard guard = new DiskSpaceGuard(64L << 20,
                existing -> new DiskSpaceGuard.Space(free.get(), 1L << 30), new JfrRepository());
        Path out = dir.resolve("profiles");
        ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, new ProfileFileWriter(out, 5, guard, OutputFiles.standard()));
        try (LogCapture logs = new LogCapture()) {
            store.add(profile("app.Hot.m", 2, null));
            store.add(profile("app.Hot.m", 2, null));

            assertThat(out).doesNotExist();
            assertThat(store.size()).isEqualTo(2);
            assertThat(logs.messages(Level.WARN)).hasSize(1).first().asString()
                    .contains("only 5 MB of 1024 MB free").contains("profiler.cpu.output-directory")
                    .contains("stays available in memory");

            free.set(1L << 30);
            Profile p = store.add(profile("app.Hot.m", 2, null));
            assertThat(out.resolve(p.id() + ".html")).exists();
        }
    }
}
