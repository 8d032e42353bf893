package dev.cpuprofiler.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.ChildJvm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With every default, a calm application records nothing: the look-back is on but idle. JFR is not even initialised
 * on the JDKs where that can wait (23+); before 23 it is initialised at start, while the code is cold (initialising it
 * later throws away a busy application's compiled code), and its threads sleep. Real CPU load arms the look-back;
 * once calm again it disarms and frees its ring. In a JVM of its own ({@link IdleLookbackChild}): this test JVM's JFR
 * has long been started by other tests.
 */
class IdleLookbackTest {

    @Test
    void anIdleApplicationStartsNoJfrAndLoadArmsTheLookback() throws Exception {
        ChildJvm.Finished child = ChildJvm.of(IdleLookbackChild.class).lean().run(Duration.ofSeconds(120));
        String out = child.output();
        assertThat(child.exited()).as(out).isTrue();
        assertThat(child.exitValue()).as(out).isZero();
        List<String> lines = out.lines().filter(l -> l.matches("(IDLE|BUSY|CALM) .*")).toList();
        lines.forEach(l -> System.out.println("[idle look-back] " + l));

        assertThat(lines).as(out).hasSize(3);
        boolean initializedAtStart = Runtime.version().feature() < 23;
        assertThat(lines.get(0)).as(out).startsWith("IDLE state=IDLE jfr=" + initializedAtStart + " jfrThreads="
                + (initializedAtStart ? "" : "0 ")).contains(" samples=0 ").contains("is not above the arming level 20.0%");
        assertThat(lines.get(1)).as(out).startsWith("BUSY state=ARMED jfr=true ");
        assertThat(lines.get(2)).as(out).startsWith("CALM state=IDLE jfr=true ").contains(" samples=0 ");

        // Idle, and after the look-back's recording ended, JFR's periodic thread naps its 1-s interval, not 10 ms
        // (JDK-8302821, Java 17-20; measured on 17.0.15: about 200 wake-ups in 2 s without the keeper, 2 with it; Java
        // 25: none). 20 in 2 s is ten times the keeper's figure and a tenth of the spin's.
        for (String phase : List.of("IDLE-PERIODIC ", "PERIODIC ")) {
            String periodic = out.lines().filter(l -> l.startsWith(phase)).findFirst().orElseThrow();
            System.out.println("[idle look-back] " + periodic);
            long wakeUps = Long.parseLong(periodic.replaceAll(".*wakeups=(-?\\d+).*", "$1"));
            assertThat(wakeUps).as(out).isLessThan(20);
        }
        String periodic = out.lines().filter(l -> l.startsWith("PERIODIC ")).findFirst().orElseThrow();
        assertThat(periodic).as(out).endsWith(" keeper=" + (Runtime.version().feature() < 21));
        assertThat(out).as("the keeping recording closes with the profiler").contains("CLOSED keeper=false");
    }
}
