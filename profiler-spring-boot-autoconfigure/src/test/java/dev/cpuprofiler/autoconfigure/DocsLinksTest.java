package dev.cpuprofiler.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * README is a map: at most {@value #README_LINES} lines, the reference in {@code docs/}. Every relative link of
 * README, {@code docs/*.md}, BENCHMARKS.md and the sample's README resolves: the file exists and, for a Markdown
 * file, so does the {@code #anchor}, by GitHub's rules (the heading lowercased, punctuation dropped, spaces to
 * {@code -}, a repeated heading numbered {@code -1}, {@code -2}).
 */
class DocsLinksTest {

    static final int README_LINES = 450;

    private static final Path ROOT = Path.of("..");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6}\\s+(.*?)(\\s+#+)?\\s*$");
    private static final Pattern LINK_TEXT = Pattern.compile("\\[([^\\]]*)\\]\\([^)]*\\)");
    private static final Pattern NOT_IN_ANCHOR = Pattern.compile("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void readmeStaysAMap() throws IOException {
        Path readme = readme();
        assertThat(Files.readAllLines(readme, StandardCharsets.UTF_8)).as("README.md's lines")
                .hasSizeLessThanOrEqualTo(README_LINES);
    }

    @Test
    void everyRelativeLinkResolves() throws IOException {
        readme();
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("BENCHMARKS.md"),
                ROOT.resolve("sample-app/README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages) {
            List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                if (FENCE.matcher(lines.get(i)).find()) {
                    fenced = !fenced;
                    continue;
                }
                if (fenced) {
                    continue;
                }
                Matcher link = LINK.matcher(CODE_SPAN.matcher(lines.get(i)).replaceAll(""));
                while (link.find()) {
                    String target = link.group(1);
                    if (target.matches("^[a-zA-Z][a-zA-Z+.-]*:.*")) {
                        continue; // https:, mailto: and the like
                    }
                    links++;
                    String problem = problem(page, target);
                    if (problem != null) {
                        broken.add(ROOT.relativize(page) + ":" + (i + 1) + ": " + target + " (" + problem + ")");
                    }
                }
            }
        }
        assertThat(links).as("relative links found").isPositive();
        assertThat(broken).as("broken relative links").isEmpty();
    }

    private String problem(Path page, String target) throws IOException {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.resolveSibling(file).normalize();
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (hash < 0 || !resolved.toString().endsWith(".md")) {
            return null;
        }
        return anchorsOf(resolved).contains(target.substring(hash + 1)) ? null : "no such heading";
    }

    private Set<String> anchorsOf(Path page) throws IOException {
        Set<String> known = anchors.get(page);
        if (known == null) {
            known = anchors(Files.readAllLines(page, StandardCharsets.UTF_8));
            anchors.put(page, known);
        }
        return known;
    }

    /** Each heading's anchor as GitHub makes it, outside fenced code. */
    static Set<String> anchors(List<String> lines) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : lines) {
            if (FENCE.matcher(line).find()) {
                fenced = !fenced;
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (fenced || !heading.matches()) {
                continue;
            }
            String text = LINK_TEXT.matcher(heading.group(1)).replaceAll("$1");
            String anchor = NOT_IN_ANCHOR.matcher(text.toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
            int n = seen.merge(anchor, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? anchor : anchor + "-" + n);
        }
        return anchors;
    }

    @Test
    void anchorsFollowGitHubsRules() {
        assertThat(anchors(List.of("# The endpoint: `/actuator/cpuprofiler`", "## Which threads burn the CPU, and "
                + "what CPU% hides", "### JFR's periodic thread (Java 17–20)", "## Notes", "## Notes", "```",
                "# not a heading", "```", "#305) is no heading")))
                .containsExactlyInAnyOrder("the-endpoint-actuatorcpuprofiler",
                        "which-threads-burn-the-cpu-and-what-cpu-hides", "jfrs-periodic-thread-java-1720", "notes",
                        "notes-1");
    }

    private static Path readme() {
        Path readme = ROOT.resolve("README.md");
        Assumptions.assumeTrue(Files.isRegularFile(readme) && Files.isDirectory(ROOT.resolve("docs")), () -> {
            System.out.println("Documentation links not checked: " + readme.toAbsolutePath() + " is absent");
            return "no README.md and docs/ next to this module";
        });
        return readme;
    }
}
