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
 * README's Spring Security recipes are the code this module's applications run, word for word: the Spring MVC one
 * and the WebFlux one, each {@code ActuatorSecurity.java} without its package line. A recipe edited in one place
 * and not the other fails here.
 */
class ReadmeRecipeTest {

    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    @Test
    void readmesRecipesAreTheTestedApplicationsSecurityConfigurations() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int section = readme.indexOf("### Protecting the endpoint with Spring Security");
        assertThat(section).as("README's section").isPositive();
        List<String> blocks = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(readme.substring(section, readme.indexOf("\n## ", section)));
        while (m.find()) {
            blocks.add(m.group(1));
        }
        assertThat(blocks).as("README's Spring MVC and WebFlux recipes").hasSize(2);
        assertThat(blocks.get(0)).isEqualTo(withoutPackage("mvc"));
        assertThat(blocks.get(1)).isEqualTo(withoutPackage("webflux"));
    }

    private static String withoutPackage(String stack) throws Exception {
        String source = Files.readString(Path.of("src/main/java/dev/cpuprofiler/secured", stack,
                "ActuatorSecurity.java"));
        return source.substring(source.indexOf('\n') + 1).stripLeading();
    }
}
