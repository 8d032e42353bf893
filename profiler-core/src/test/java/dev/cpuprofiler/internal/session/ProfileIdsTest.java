package dev.cpuprofiler.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.SessionTrigger;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProfileIdsTest {

    private static final Instant T = Instant.parse("2026-11-26T04:30:53.400Z");

    @Test
    void twoProfilersInTheSameSecondNameTheirProfilesApartAndIdsSortByTime() {
        ProfilingSessions.ProfileIds a = ProfilingSessions.ProfileIds.random();
        ProfilingSessions.ProfileIds b = ProfilingSessions.ProfileIds.random();
        String fromA = a.next(SessionTrigger.MANUAL, T);
        String fromB = b.next(SessionTrigger.MANUAL, T);

        assertThat(fromA).isNotEqualTo(fromB).matches("20261126T043053Z-manual-1-[0-9a-z]{8}");
        assertThat(fromB).matches("20261126T043053Z-manual-1-[0-9a-z]{8}");
        String later = b.next(SessionTrigger.CPU, T.plusSeconds(1));
        assertThat(later).matches("20261126T043054Z-cpu-2-[0-9a-z]{8}");
        assertThat(List.of(later, fromA, fromB)).allSatisfy(id -> assertThat(id).isGreaterThan("20261126T043052Z")
                .isLessThan("20261126T043055Z").matches("[0-9A-Za-z-]+")); // safe in a URL and a file name
        assertThat(later).isGreaterThan(fromA).isGreaterThan(fromB);
    }
}
