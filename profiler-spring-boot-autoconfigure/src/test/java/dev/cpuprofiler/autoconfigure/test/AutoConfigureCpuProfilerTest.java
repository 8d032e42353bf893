package dev.cpuprofiler.autoconfigure.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link AutoConfigureCpuProfiler} imports into a test slice exactly the auto-configurations an application gets:
 * its list and the starter's are two files Spring reads, kept equal here.
 */
class AutoConfigureCpuProfilerTest {

    @Test
    void importsWhatTheApplicationGets() throws IOException {
        assertThat(entries("META-INF/spring/" + AutoConfigureCpuProfiler.class.getName() + ".imports"))
                .isNotEmpty()
                .isEqualTo(entries("META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"));
    }

    private static List<String> entries(String resource) throws IOException {
        try (InputStream in = AutoConfigureCpuProfiler.class.getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        }
    }
}
