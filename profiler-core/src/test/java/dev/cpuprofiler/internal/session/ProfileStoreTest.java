package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.internal.core.PipelineBuilder;
import dev.cpuprofiler.EngineChoice;


import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import ch.qos.logback.classic.Level;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.JfrRepository;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.testing.LogCapture;
import dev.cpuprofiler.internal.testing.OtherUser;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileStoreTest {

    @TempDir
    Path dir;

    private static int seq;

    static Profile profile(String hotFrame, int distinctStacks, Path jfr) {
        return profile(SessionTrigger.CPU, hotFrame, distinctStacks, jfr);
    }

    static Profile profile(SessionTrigger trigger, String hotFrame, int distinctStacks, Path jfr) {
        StackTree tree = new StackTree(64, 1_000_000, false);
        for (int i = 0; i < distinctStacks; i++) {
            tree.accept(List.of(Frame.java("app.Main.run"), Frame.java(hotFrame + i)), "main", 3);
        }
        Instant start = Instant.parse("2026-11-22T02:00:00Z").plusSeconds(seq++);
        String id = String.format("20261122T02%04dZ-%s-%d-test", seq, trigger.name().toLowerCase(Locale.ROOT), seq);
        return ProfileBuilder.profile(id, trigger, tree.snapshot()).engine(EngineChoice.JFR_EXECUTION, "jfr")
                .between(start, start.plusSeconds(30)).cpuPercent(85.0).jfrFile(jfr).build();
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
        ProfileStore store = new ProfileStore(10, ProfileStore.estimatedBytes(big) + 1000, null);
        Profile small = profile("app.Small.m", 1, null);
        store.add(small);
        store.add(big);
        assertThat(store.list()).containsExactly(big, small);
        Profile bigger = profile("app.Bigger.m", 20_000, null);
        store.add(bigger);
        assertThat(store.list()).containsExactly(bigger);
        assertThat(store.estimatedBytes()).isEqualTo(ProfileStore.estimatedBytes(bigger));
    }

    @Test
    void withoutAnOutputDirectoryTheRecordingIsKeptUntilItsProfileIsDropped() throws IOException {
        Path first = Files.writeString(dir.resolve("first.jfr"), "pretend JFR 1");
        Path second = Files.writeString(dir.resolve("second.jfr"), "pretend JFR 2");
        ProfileStore store = new ProfileStore(1, Long.MAX_VALUE, null);

        Profile stored = store.add(profile("app.Hot.m", 1, first));
        assertThat(stored.recording().jfrFile()).isEqualTo(first).exists();
        assertThat(store.estimatedBytes()).isEqualTo(ProfileStore.estimatedBytes(stored) + Files.size(first));

        store.add(profile("app.Hot.m", 1, second));
        assertThat(first).doesNotExist();
        assertThat(second).exists();

        store.close();
        assertThat(second).doesNotExist();
        assertThat(store.latest()).get().extracting(p -> p.recording().jfrFile()).isNull();
    }

    @Test
    void recordingsCountInTheByteBoundAndNeverCostTheProfile() throws IOException {
        Profile small = profile("app.Hot.m", 1, null);
        long bound = ProfileStore.estimatedBytes(small) * 4; // the three profiles and the older recording, just
        Path older = Files.write(dir.resolve("older.jfr"), new byte[(int) ProfileStore.estimatedBytes(small)]);
        Path huge = Files.write(dir.resolve("huge.jfr"), new byte[(int) bound]);
        ProfileStore store = new ProfileStore(10, bound, null);

        Profile first = store.add(profile("app.Hot.m", 1, older));
        Profile second = store.add(profile("app.Hot.m", 1, null));
        assertThat(store.list()).extracting(Profile::id).containsExactly(second.id(), first.id());

        // Over the bound with its recording even alone: the recording is refused first, and nothing else goes.
        Profile third = store.add(profile("app.Hot.m", 1, huge));
        assertThat(third.recording().jfrFile()).isNull();
        assertThat(huge).doesNotExist();
        assertThat(older).exists();
        assertThat(store.list()).extracting(Profile::id).containsExactly(third.id(), second.id(), first.id());
        assertThat(store.get(first.id())).get().extracting(p -> p.recording().jfrFile()).isEqualTo(older);
        assertThat(store.estimatedBytes()).isEqualTo(ProfileStore.estimatedBytes(first) + Files.size(older)
                + ProfileStore.estimatedBytes(second) + ProfileStore.estimatedBytes(third));
    }

    @Test
    void onDemandProfilesNeverPushOutTheIncidentFromMemory() {
        ProfileStore store = new ProfileStore(2, Long.MAX_VALUE, null);
        Profile cpu = store.add(profile(SessionTrigger.CPU, "app.Hot.m", 1, null));
        Profile saturation = store.add(profile(SessionTrigger.SATURATION, "app.Hot.m", 1, null));
        List<Profile> onDemand = Stream.generate(() -> profile(SessionTrigger.MANUAL, "app.Hot.m", 1, null))
                .limit(5).map(store::add).toList();

        assertThat(store.list()).containsExactly(onDemand.get(4), onDemand.get(3), saturation, cpu);
        assertThat(store.get(ProfileStore.LATEST)).contains(onDemand.get(4));

        // Another incident pushes out the oldest incident only.
        Profile nextCpu = store.add(profile(SessionTrigger.CPU, "app.Hot.m", 1, null));
        assertThat(store.list()).containsExactly(nextCpu, onDemand.get(4), onDemand.get(3), saturation);
    }

    @Test
    void onDemandProfilesGoFirstWhenMemoryIsShortAndNeverTakeTheIncidentsPlace() throws IOException {
        Profile sized = profile("app.Hot.m", 200, null);
        long bound = ProfileStore.estimatedBytes(sized) * 2 + ProfileStore.estimatedBytes(sized) / 2; // two such profiles fit, not three
        ProfileStore store = new ProfileStore(10, bound, null);
        Profile cpu = store.add(profile(SessionTrigger.CPU, "app.Hot.m", 200, null));
        Profile first = store.add(profile(SessionTrigger.MANUAL, "app.Hot.m", 200, null));
        Profile second = store.add(profile(SessionTrigger.MANUAL, "app.Hot.m", 200, null));
        assertThat(store.list()).containsExactly(second, cpu);

        // An on-demand recording that fits only by pushing out the incident is refused, and the incident stays.
        Path jfr = Files.write(dir.resolve("manual.jfr"), new byte[(int) ProfileStore.estimatedBytes(sized)]);
        Profile third = store.add(profile(SessionTrigger.MANUAL, "app.Hot.m", 200, jfr));
        assertThat(third.recording().jfrFile()).isNull();
        assertThat(jfr).doesNotExist();
        assertThat(store.list()).containsExactly(third, cpu);

        // An incident pushes out on-demand profiles before any older incident.
        Profile nextCpu = store.add(profile(SessionTrigger.CPU, "app.Hot.m", 200, null));
        assertThat(store.list()).containsExactly(nextCpu, cpu);
    }

    @Test
    void aRecordingOnADiskAtItsFloorIsDeletedAndTheProfileKept() throws IOException {
        Path jfr = Files.writeString(dir.resolve("engine.jfr"), "pretend JFR");
        DiskSpaceGuard full = new DiskSpaceGuard(1024, path -> new DiskSpaceGuard.Space(10, 1_000_000),
                new JfrRepository());
        ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, null, full);

        Profile stored = store.add(profile("app.Hot.m", 1, jfr));

        assertThat(stored.recording().jfrFile()).isNull();
        assertThat(jfr).doesNotExist();
        assertThat(store.latest()).contains(stored);
    }

    @Test
    void writesOwnerOnlyFilesAndKeepsTheJfr() throws IOException {
        Path out = dir.resolve("profiles");
        Path jfr = Files.writeString(dir.resolve("engine.jfr"), "pretend JFR");
        ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, new ProfileFileWriter(out, 5, PipelineBuilder.outputFiles()));
        Profile p = profile("app.Hot.compute", 1, jfr);

        Profile stored = store.add(p);

        assertThat(Files.getPosixFilePermissions(out)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        Path collapsed = out.resolve(p.id() + ".collapsed.txt");
        Path html = out.resolve(p.id() + ".html");
        assertThat(Files.readString(collapsed)).contains("app.Main.run;app.Hot.compute0 3");
        assertThat(Files.readString(html)).contains("app.Hot.compute0");
        assertThat(stored.recording().jfrFile()).isEqualTo(out.resolve(p.id() + ".jfr"));
        assertThat(Files.readString(stored.recording().jfrFile())).isEqualTo("pretend JFR");
        for (Path f : List.of(collapsed, html, stored.recording().jfrFile())) {
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
        ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, new ProfileFileWriter(out, 2, PipelineBuilder.outputFiles()));
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
    void onDemandProfilesNeverPushTheIncidentOutOfTheOutputDirectory() throws IOException {
        Path out = dir.resolve("profiles");
        ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, new ProfileFileWriter(out, 2, PipelineBuilder.outputFiles()));
        Profile cpu = store.add(profile(SessionTrigger.CPU, "app.Hot.m", 1, null));
        List<Profile> onDemand = Stream.generate(() -> profile(SessionTrigger.MANUAL, "app.Hot.m", 1, null))
                .limit(4).map(store::add).toList();

        assertThat(fileNames(out)).containsExactlyInAnyOrder(
                cpu.id() + ".collapsed.txt", cpu.id() + ".html",
                onDemand.get(2).id() + ".collapsed.txt", onDemand.get(2).id() + ".html",
                onDemand.get(3).id() + ".collapsed.txt", onDemand.get(3).id() + ".html");
    }

    /**
     * Two instances writing to one directory (as two apps sharing a volume): each one's retention deletes only the
     * files it wrote, however the ids of the other sort.
     */
    @Test
    void instancesSharingADirectoryDeleteOnlyTheirOwnFiles() throws IOException {
        Path out = dir.resolve("profiles");
        ProfileFileWriter a = new ProfileFileWriter(out, 1, PipelineBuilder.outputFiles());
        ProfileFileWriter b = new ProfileFileWriter(out, 1, PipelineBuilder.outputFiles());
        Profile a1 = a.write(withId(profile("app.Hot.m", 1, null), "20261122T020001Z-cpu-1"));
        Profile b1 = b.write(withId(profile("app.Hot.m", 1, null), "20261122T020002Z-cpu-1"));
        Profile a2 = a.write(withId(profile("app.Hot.m", 1, null), "20261122T020003Z-cpu-2"));

        assertThat(fileNames(out)).containsExactlyInAnyOrder(b1.id() + ".collapsed.txt", b1.id() + ".html",
                a2.id() + ".collapsed.txt", a2.id() + ".html");

        Profile b2 = b.write(withId(profile("app.Hot.m", 1, null), "20261122T020004Z-cpu-2"));
        assertThat(fileNames(out)).containsExactlyInAnyOrder(a2.id() + ".collapsed.txt", a2.id() + ".html",
                b2.id() + ".collapsed.txt", b2.id() + ".html");
        assertThat(a1.id()).isNotEqualTo(b1.id());
    }

    /**
     * A file already under a profile's name (another instance's, or a link someone planted) is never overwritten nor
     * written through, and another's temporary file is left alone: the write fails, the profile stays in memory.
     */
    @Test
    void aFileAlreadyThereIsNeitherOverwrittenNorFollowed() throws IOException {
        Path out = Files.createDirectories(dir.resolve("profiles"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Profile p = profile("app.Hot.m", 1, null);
        Path theirs = Files.writeString(out.resolve(p.id() + ".collapsed.txt"), "another instance's profile");
        Path victim = Files.writeString(dir.resolve("victim.txt"), "not the profiler's");
        Path link = Files.createSymbolicLink(out.resolve(p.id() + ".html"), victim);
        Path theirTmp = Files.writeString(out.resolve("." + p.id() + ".collapsed.txt.tmp"), "being written");
        ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, new ProfileFileWriter(out, 5, PipelineBuilder.outputFiles()));

        try (LogCapture logs = new LogCapture()) {
            assertThat(store.add(p)).isEqualTo(p);
            assertThat(logs.messages(Level.WARN)).hasSize(1).first().asString().contains("stays available in memory");
        }
        assertThat(Files.readString(theirs)).isEqualTo("another instance's profile");
        assertThat(Files.readString(theirTmp)).isEqualTo("being written");
        assertThat(Files.readString(victim)).isEqualTo("not the profiler's");
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(fileNames(out)).noneMatch(n -> n.endsWith(".tmp") && !n.equals(theirTmp.getFileName().toString()));
    }

    @Test
    void nothingIsWrittenIntoADirectoryAnotherUserOwnsOrOthersMayWrite() throws IOException {
        Assumptions.assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"),
                "no POSIX permissions on this filesystem");
        Path shared = Files.createDirectories(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path foreign = Files.createDirectories(dir.resolve("foreign"));
        UserPrincipal nobody = OtherUser.nobody(dir);
        if (nobody != null) {
            Files.setOwner(foreign, nobody);
        }
        for (Path out : nobody == null ? List.of(shared) : List.of(shared, foreign)) {
            ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, new ProfileFileWriter(out, 5,
                    PipelineBuilder.outputFiles()));
            try (LogCapture logs = new LogCapture()) {
                Profile p = profile("app.Hot.m", 1, null);
                assertThat(store.add(p)).isEqualTo(p);
                assertThat(logs.messages(Level.WARN)).hasSize(1).first().asString()
                        .contains("profiler.cpu.output-directory").contains("stays available in memory");
            }
            assertThat(fileNames(out)).as(out.toString()).isEmpty();
        }
    }

    private static Profile withId(Profile p, String id) {
        return ProfileBuilder.copy(p).id(id).build();
    }

    private static List<String> fileNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).toList();
        }
    }

    @Test
    void aWriteFailureIsLoggedOnceAndTheProfileStaysInMemory() throws IOException {
        // A regular file where the directory should be: every write fails, like a read-only mount.
        Path notADir = Files.writeString(dir.resolve("blocked"), "x");
        ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, new ProfileFileWriter(notADir.resolve("sub"), 5, PipelineBuilder.outputFiles()));
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
        ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, new ProfileFileWriter(out, 5, guard, PipelineBuilder.outputFiles()));
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
