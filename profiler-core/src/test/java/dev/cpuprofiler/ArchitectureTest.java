package dev.cpuprofiler;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.cpuprofiler.core.CpuProfiler;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pipeline reads one way: each stage may use the stages below it and none above, so a stage can be read and
 * changed knowing only what is under it. README's "How it is built" lists the stages.
 */
class ArchitectureTest {

    /** From low to high; a stage may import only stages to its left. */
    static final List<String> STAGES = List.of("stack", "cpu", "baseline", "threads", "engine", "lookback",
            "session", "trigger", "core");

    private static JavaClasses production;

    /** Only profiler-core's own classes: the test fixtures module shares the base package and is no stage. */
    @BeforeAll
    static void importProductionClasses() throws Exception {
        Path coreClasses = Path.of(CpuProfiler.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPath(coreClasses);
        assertThat(production.contain(CpuProfiler.class)).as("imported from " + coreClasses).isTrue();
    }

    @Test
    void everyClassLivesInAStage() {
        noClasses().should().resideOutsideOfPackages(STAGES.stream().map(s -> "dev.cpuprofiler." + s + "..")
                        .toArray(String[]::new))
                .because("every class belongs to one stage of the pipeline: " + STAGES)
                .check(production);
    }

    @Test
    void noStageImportsAStageAboveIt() {
        for (int i = 0; i < STAGES.size() - 1; i++) {
            String stage = STAGES.get(i);
            String[] above = STAGES.subList(i + 1, STAGES.size()).stream().map(s -> "dev.cpuprofiler." + s + "..")
                    .toArray(String[]::new);
            noClasses().that().resideInAPackage("dev.cpuprofiler." + stage + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(above)
                    .because("the stages run " + String.join(" → ", STAGES) + " from low to high, and '" + stage
                            + "' may use only the stages before it; pass what it needs in (a settings record, a "
                            + "listener, a functional interface) instead of reaching up")
                    .check(production);
        }
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.cpuprofiler.(*)..").should().beFreeOfCycles().check(production);
    }

    @Test
    void theCoreHasNoSpringImport() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.springframework..")
                .because("profiler-core is plain Java; the Spring side lives in the autoconfigure module")
                .check(production);
    }
}
