package dev.cpuprofiler.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Headless Chromium for the tests that look at pages as a browser draws them. */
final class Chromium {

    private Chromium() {
    }

    /** Runs headless Chromium on the URL; returns what it prints (the DOM for --dump-dom). */
    static String run(String browser, String what, String... more) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(browser, "--headless", "--disable-gpu", "--no-sandbox",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--no-first-run", "--user-data-dir="
                        + Files.createTempDirectory("cpuprofiler-chromium"), what));
        command.addAll(List.of(more));
        Path out = Files.createTempFile("cpuprofiler-chromium", ".out");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("Chromium did not finish within 90 s: " + command);
        }
        assertThat(p.exitValue()).as("exit status of " + command).isZero();
        String output = Files.readString(out, StandardCharsets.UTF_8);
        Files.deleteIfExists(out);
        return output;
    }

    /** The browser, or the test skipped with the reason printed (under its name) where none is installed. */
    static String browserOrSkip(String test) {
        Optional<String> browser = browser();
        if (browser.isEmpty()) {
            System.out.println(test + " skipped: no chromium, chromium-browser or google-chrome on PATH");
        }
        Assumptions.assumeTrue(browser.isPresent(), "no chromium, chromium-browser or google-chrome on PATH");
        return browser.get();
    }

    /** The first of chromium, chromium-browser, google-chrome on PATH. */
    static Optional<String> browser() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate.toString());
                }
            }
        }
        return Optional.empty();
    }
}
