package dev.cpuprofiler.autoconfigure;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The starter uses the core the way any application could: through its public API ({@code dev.cpuprofiler},
 * {@code dev.cpuprofiler.format}), never {@code dev.cpuprofiler.internal}, which may change in any release.
 */
class ApiBoundaryTest {

    @Test
    void theAutoConfigurationImportsNothingInternal() throws Exception {
        Path classes = Path.of(CpuProfilerAutoConfiguration.class.getProtectionDomain().getCodeSource().getLocation()
                .toURI());
        JavaClasses production = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPath(classes);
        assertThat(production.contain(CpuProfilerAutoConfiguration.class)).as("imported from " + classes).isTrue();
        noClasses().should().dependOnClassesThat().resideInAPackage("dev.cpuprofiler.internal..")
                .because("the core's API is dev.cpuprofiler and dev.cpuprofiler.format; what the starter needs "
                        + "beyond it belongs in the API, not in a reach into the pipeline's stages")
                .check(production);
    }
}
