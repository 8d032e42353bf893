package dev.cpuprofiler.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.Profile.Latency.Verdict;
import org.junit.jupiter.api.Test;

/** What a slow endpoint's time went to, from its mean duration, CPU and recorded waits per request. */
class LatencyVerdictTest {

    @Test
    void waitingOnALockIsWaitAndBurningIsCpu() {
        assertThat(ProfileAssembly.verdict(93, 2.0, null, 89, 20.0)).isEqualTo(Verdict.WAIT);
        assertThat(ProfileAssembly.verdict(300, 280.0, null, 0, 60.0)).isEqualTo(Verdict.CPU);
        assertThat(ProfileAssembly.verdict(300, 150.0, null, 140, 60.0)).isEqualTo(Verdict.BOTH);
    }

    @Test
    void timeNeitherOnACpuNorRecordedWaitingIsQueueingWhenTheCpusAreSaturatedAndUnseenWaitingOtherwise() {
        // 40 ms of CPU in a 400-ms request, no wait recorded: runnable threads queueing for 2 busy CPUs.
        assertThat(ProfileAssembly.verdict(400, 40.0, null, 0, 97.0)).isEqualTo(Verdict.CPU);
        // The same with idle CPUs: a wait no event saw (a virtual thread's park).
        assertThat(ProfileAssembly.verdict(400, 40.0, null, 0, 20.0)).isEqualTo(Verdict.WAIT);
    }

    @Test
    void againstTheReferenceOnlyTheCpuThatGrewCounts() {
        // Always 150 ms of CPU; now 400 ms waiting on top: the change is the wait.
        assertThat(ProfileAssembly.verdict(560, 150.0, 150.0, 400, 50.0)).isEqualTo(Verdict.WAIT);
        // 5 ms normally, now 300 ms of CPU.
        assertThat(ProfileAssembly.verdict(310, 300.0, 5.0, 0, 60.0)).isEqualTo(Verdict.CPU);
    }

    @Test
    void withoutItsCpuTheRecordedWaitsDecide() {
        assertThat(ProfileAssembly.verdict(100, null, null, 80, 20.0)).isEqualTo(Verdict.WAIT);
        assertThat(ProfileAssembly.verdict(100, null, null, 10, 20.0)).isEqualTo(Verdict.BOTH);
    }
}
