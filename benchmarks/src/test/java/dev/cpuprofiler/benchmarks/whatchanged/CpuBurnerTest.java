package dev.cpuprofiler.benchmarks.whatchanged;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The What-changed application's requests cost what they say, in CPU time on their thread: {@code /orbit} and
 * {@code /ledger} 10 ms a unit of cost, so 100 ms at cost 10, measured here with the thread's own CPU clock around
 * each call, as a request would burn it, after the kernels have been compiled.
 * <p>
 * Bounds: every call at least what it was asked (the burner stops only past its target) and at most 3% more (its
 * last kernel call overshoots by at most 20 µs of work, plus the clock's reads); measured over 15 runs of this class,
 * 12 of them with one of the 2 CPUs kept busy ({@code yes > /dev/null}): at most 10.208 ms for 10 (2.1% over) and
 * 100.265 ms for 100, never under. The load on the machine does not enter: CPU time is counted only while the thread
 * runs.
 */
class CpuBurnerTest {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final double OVER = 0.03;

    @Test
    void eachRequestBurnsTheCpuTimeItIsAskedOnItsThread() {
        CpuBurner orbit = new CpuBurner(OrbitKernel::step);
        CpuBurner ledger = new CpuBurner(LedgerKernel::sum);
        for (int i = 0; i < 100; i++) { // about 1.8 s: both kernels compiled, their speed known
            orbit.burn(OrbitLedgerController.ORBIT_MILLIS * 1_000_000L);
            ledger.burn(OrbitLedgerController.LEDGER_MILLIS * 1_000_000L);
        }
        assertBurns(orbit, OrbitLedgerController.ORBIT_MILLIS, 30);
        assertBurns(ledger, OrbitLedgerController.LEDGER_MILLIS, 30);
        assertBurns(ledger, OrbitLedgerController.LEDGER_MILLIS * 10, 5);
    }

    private static void assertBurns(CpuBurner burner, int millis, int calls) {
        List<Double> measured = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            long before = THREADS.getCurrentThreadCpuTime();
            long reported = burner.burn(millis * 1_000_000L);
            long spent = THREADS.getCurrentThreadCpuTime() - before;
            assertThat(reported).isBetween(millis * 1_000_000L, spent);
            measured.add(spent / 1e6);
        }
        Collections.sort(measured);
        System.out.printf("[CpuBurner] %d ms asked: %.3f to %.3f ms on the thread's CPU clock (median %.3f)%n",
                millis, measured.get(0), measured.get(calls - 1), measured.get(calls / 2));
        assertThat(measured).allSatisfy(ms -> assertThat(ms).isBetween((double) millis, millis * (1 + OVER)));
    }
}
