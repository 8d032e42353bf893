package dev.cpuprofiler.secured;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Spring Security recipes of {@code docs/security.md} are the code this module's applications run, word for word:
 * the Spring MVC one and the WebFlux one, each {@code ActuatorSecurity.java} without its package line. A recipe
 * edited in one place and not the other fails here.
 */
class SecurityRecipeTest {

    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    @Test
    void theDocumentedRecipesAreTheTestedApplicationsSecurityConfigurations() throws Exception {
        String page = Files.readString(Path.of("..", "docs", "security.md"));
        int section = page.indexOf("\n## Protecting the endpoint with Spring Security\n");
        assertThat(section).as("docs/security.md's section").isPositive();
        int next = page.indexOf("\n## ", section + 1);
        List<String> blocks = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(page.substring(section, next < 0 ? page.length() : next));
        while (m.find()) {
            blocks.add(m.group(1));
        }
        assertThat(blocks).as("docs/security.md's Spring MVC and WebFlux recipes").hasSize(2);
        assertThat(blocks.get(0)).isEqualTo(withoutPackage("mvc"));
        assertThat(blocks.get(1)).isEqualTo(withoutPackage("webflux"));
    }

    private static String withoutPackage(String stack) throws Exception {
        String source = Files.readString(Path.of("src/main/java/dev/cpuprofiler/secured", stack,
                "ActuatorSecurity.java"));
        return source.substring(source.indexOf('\n') + 1).stripLeading();
    }
}
