package dev.cpuprofiler.session.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.stack.FrameKind;
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
}
