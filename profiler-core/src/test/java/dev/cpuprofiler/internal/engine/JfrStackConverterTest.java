package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.FrameKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JfrStackConverterTest {

    @ParameterizedTest
    @CsvSource({
        "Interpreted, JAVA", "JIT compiled, JAVA", "C1 compiled, JAVA", "Inlined, INLINED",
        "Native, NATIVE", "C++, NATIVE", "Kernel, KERNEL", "Something new, UNKNOWN"})
    void jfrFrameTypesOfTheJdkAndOfAsyncProfilerMapToFrameKinds(String jfrType, FrameKind kind) {
        assertThat(JfrStackConverter.kindOf(jfrType)).isEqualTo(kind);
    }

    @ParameterizedTest
    @CsvSource({
        // frames, cut, maxStackDepth -> kept leaf-most frames (a cut stack leaves room for its [truncated] root)
        "4000, false, 8192, 4000",
        "8192, false, 8192, 8192",
        "8193, true, 8192, 8191",  // async-profiler's jstackdepth is max-stack-depth + 1: one more says it was cut
        "2048, true, 8192, 2048",  // JFR's own limit, marked truncated: all 2048 fit, plus the marker
        "2048, true, 2048, 2047",
        "512, true, 512, 511"})
    void aCutStackKeepsItsLeafMostFramesAndFitsTheTreeWithItsMarker(int frames, boolean cut, int max, int kept) {
        assertThat(JfrStackConverter.kept(frames, cut, max)).isEqualTo(kept);
        assertThat(kept + (cut ? 1 : 0)).isLessThanOrEqualTo(max);
    }

    @ParameterizedTest
    @CsvSource({
        "break_stack_range, NATIVE, '', true",
        "break_interpreted, NATIVE, '', true",
        "break_compiled, NATIVE, '', true",
        "break_stack_range, JAVA, app.Foo, false",
        "break_even, NATIVE, libapp.so, false",
        "start_thread, NATIVE, '', false"})
    void asyncProfilersStackWalkStopsAreRecognised(String name, FrameKind kind, String className, boolean stop) {
        assertThat(JfrStackConverter.isWalkStop(name, kind, className)).isEqualTo(stop);
    }
}
