package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.internal.core.PipelineBuilder;
import static dev.cpuprofiler.internal.session.ProfileStoreTest.profile;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * References of normal in the store: kept apart from {@code retained-profiles}, never pushed out by other profiles,
 * the newest kept and every older one a kept profile was compared with; never the {@code latest}; written to the
 * output directory with a retention of their own.
 */
class ReferencesInTheStoreTest {

    @TempDir
    Path dir;

    private static Profile reference() {
        return profile(SessionTrigger.REFERENCE, "app.Calm.m", 1, null);
    }

    /** A CPU-triggered profile compared with {@code reference}. */
    private static Profile comparedWith(Profile reference) {
        return profile(SessionTrigger.CPU, "app.Hot.m", 1, null)
                .withComparison(new Profile.Comparison(reference.id(), List.of(), List.of()));
    }

    @Test
    void aReferenceNeverCountsAgainstRetainedProfilesAndIsNeverTheLatest() {
        ProfileStore store = new ProfileStore(2, Long.MAX_VALUE, null);
        Profile reference = store.add(reference());
        assertThat(store.reference()).contains(reference);
        assertThat(store.latest()).as("only a reference: no latest profile").isEmpty();
        assertThat(store.get(ProfileStore.LATEST)).isEmpty();

        List<Profile> incidents = Stream.generate(() -> profile(SessionTrigger.CPU, "app.Hot.m", 1, null)).limit(3)
                .map(store::add).toList();
        List<Profile> onDemand = Stream.generate(() -> profile(SessionTrigger.MANUAL, "app.Hot.m", 1, null)).limit(3)
                .map(store::add).toList();

        assertThat(store.list()).containsExactly(onDemand.get(2), onDemand.get(1), incidents.get(2), incidents.get(1),
                reference);
        assertThat(store.get(ProfileStore.LATEST)).contains(onDemand.get(2));
        assertThat(store.reference()).contains(reference);
    }

    @Test
    void theNewestReferenceIsKeptAndAnOlderOneWhileAKeptProfileNamesIt() {
        ProfileStore store = new ProfileStore(2, Long.MAX_VALUE, null);
        Profile first = store.add(reference());
        Profile unused = store.add(reference());
        assertThat(store.list()).as("a newer reference with nothing compared with the older").containsExactly(unused);
        assertThat(store.get(first.id())).isEmpty();

        Profile second = store.add(reference());
        Profile comparedWithSecond = store.add(comparedWith(second));
        Profile third = store.add(reference());
        assertThat(store.list()).as("the second stays: a kept profile was compared with it")
                .containsExactly(third, comparedWithSecond, second);
        assertThat(store.get(second.id())).contains(second);
        assertThat(store.reference()).contains(third);

        // Two later incidents push the one compared with the second out of retained-profiles: the second goes too.
        store.add(comparedWith(third));
        store.add(comparedWith(third));
        assertThat(store.get(comparedWithSecond.id())).isEmpty();
        assertThat(store.get(second.id())).isEmpty();
        assertThat(store.list()).filteredOn(p -> p.trigger() == SessionTrigger.REFERENCE).containsExactly(third);
    }

    @Test
    void whenMemoryIsShortNothingPushesOutAReferenceAndAReferencePushesOutNothing() {
        Profile sized = profile("app.Hot.m", 200, null);
        long bound = ProfileStore.estimatedBytes(sized) * 2 + ProfileStore.estimatedBytes(sized) / 2; // two fit
        ProfileStore store = new ProfileStore(10, bound, null);
        Profile reference = store.add(profile(SessionTrigger.REFERENCE, "app.Calm.m", 200, null));
        Profile manual = store.add(profile(SessionTrigger.MANUAL, "app.Hot.m", 200, null));
        Profile cpu = store.add(profile(SessionTrigger.CPU, "app.Hot.m", 200, null));
        assertThat(store.list()).as("the incident pushed out the on-demand profile, not the reference")
                .containsExactly(cpu, reference);

        Profile nextReference = store.add(profile(SessionTrigger.REFERENCE, "app.Calm.m", 200, null));
        assertThat(store.list()).as("the new reference replaces the old one, and leaves the incident alone")
                .containsExactly(nextReference, cpu);
        assertThat(store.get(manual.id())).isEmpty();
    }

    @Test
    void theOutputDirectoryKeepsReferencesWithTheirOwnRetentionAndAMovedRecordingKeepsTheComparison()
            throws IOException {
        Path out = dir.resolve("profiles");
        ProfileStore store = new ProfileStore(10, Long.MAX_VALUE, new ProfileFileWriter(out, 1,
                PipelineBuilder.outputFiles()));
        store.add(reference()); // its files go when the next reference is written: retention 1
        Profile second = store.add(reference());
        Path jfr = Files.writeString(dir.resolve("engine.jfr"), "pretend JFR");
        Profile incident = store.add(profile(SessionTrigger.CPU, "app.Hot.m", 1, jfr)
                .withComparison(new Profile.Comparison(second.id(), List.of(), List.of())));

        try (Stream<Path> files = Files.list(out)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder(second.id() + ".collapsed.txt", second.id() + ".html",
                            incident.id() + ".collapsed.txt", incident.id() + ".html", incident.id() + ".jfr");
        }
        assertThat(incident.recording().jfrFile()).isEqualTo(out.resolve(incident.id() + ".jfr"));
        assertThat(incident.comparison()).as("the profile whose recording moved to the output directory")
                .isNotNull();
        assertThat(store.latest().orElseThrow().comparison().reference()).isEqualTo(second.id());
    }
}
