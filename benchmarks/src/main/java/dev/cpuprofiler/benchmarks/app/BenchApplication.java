package dev.cpuprofiler.benchmarks.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The web app the overhead and detection benchmarks load: a small JSON endpoint ({@code GET /api/quote}), a
 * fixed CPU-bound workload ({@code POST /bench/cpu}), a load switch ({@code POST /bench/burn}) and its own facts
 * ({@code GET /bench/info}). It uses cpuprofiler exactly as a user does: through {@code profiler-spring-boot-starter}
 * and {@code profiler.*} properties, given on the command line by the harness.
 *
 * <p>Run by hand: {@code java -cp benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)
 * dev.cpuprofiler.benchmarks.app.BenchApplication --server.port=8080}.
 */
@SpringBootApplication
public class BenchApplication {

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(BenchApplication.class);
        app.run(args);
    }
}
