package dev.cpuprofiler;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The house: a small public API in {@code dev.cpuprofiler} and {@code dev.cpuprofiler.format}, and the pipeline's
 * stages under {@code dev.cpuprofiler.internal}, which read one way: each stage may use the stages below it and none
 * above, so a stage can be read and changed knowing only what is under it. docs/development.md's "How it is built"
 * lists them.
 */
class ArchitectureTest {

    static final String API = "dev.cpuprofiler";
    static final String FORMATS = "dev.cpuprofiler.format";
    static final String INTERNAL = "dev.cpuprofiler.internal";

    /** From low to high; a stage may import only stages to its left. */
    static final List<String> STAGES = List.of("stack", "compare", "cpu", "baseline", "threads", "engine", "lookback",
            "requests", "session", "trigger", "core");

    /** What the public API may hold at most. */
    static final int MAX_PUBLIC_API_TYPES = 24;

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

    private static String stage(String name) {
        return INTERNAL + "." + name + "..";
    }

    @Test
    void everyClassLivesInTheApiOrAStage() {
        String[] places = STAGES.stream().map(ArchitectureTest::stage).collect(Collectors.toList())
                .toArray(new String[0]);
        noClasses().should().resideOutsideOfPackages(concat(places, API, FORMATS))
                .because("a class is either public API (" + API + ", " + FORMATS + ") or belongs to one stage of "
                        + "the pipeline under " + INTERNAL + ": " + STAGES)
                .check(production);
    }

    @Test
    void noStageImportsAStageAboveIt() {
        for (int i = 0; i < STAGES.size() - 1; i++) {
            String name = STAGES.get(i);
            String[] above = STAGES.subList(i + 1, STAGES.size()).stream().map(ArchitectureTest::stage)
                    .toArray(String[]::new);
            noClasses().that().resideInAPackage(stage(name))
                    .should().dependOnClassesThat().resideInAnyPackage(above)
                    .because("the stages run " + String.join(" → ", STAGES) + " from low to high, and '" + name
                            + "' may use only the stages before it; pass what it needs in (the options, a value, a "
                            + "listener, a functional interface) instead of reaching up")
                    .check(production);
        }
    }

    @Test
    void noStageUsesTheFacadeOrTheFormats() {
        String[] belowCore = STAGES.subList(0, STAGES.size() - 1).stream().map(ArchitectureTest::stage)
                .toArray(String[]::new);
        noClasses().that().resideInAnyPackage(belowCore)
                .should().dependOnClassesThat().haveFullyQualifiedName(CpuProfiler.class.getName())
                .orShould().dependOnClassesThat().resideInAPackage(FORMATS + "..")
                .because("the formats sit above the stages and below the assembly (core), the facade on top: the "
                        + "stages hand up the API's value types (profiles, status, trees), and what they need of a "
                        + "format is passed in (a ProfileFileWriter.File)")
                .check(production);
        noClasses().that().resideInAPackage(FORMATS + "..")
                .should().dependOnClassesThat().resideInAnyPackage(stage("core"), stage("trigger"),
                        stage("session"), stage("engine"), stage("lookback"))
                .because("a format writes a profile: it needs the stack stage's renderers, nothing that records")
                .check(production);
    }

    @Test
    void theApiUsesNothingBelowIt() {
        noClasses().that().resideInAPackage(API)
                .should().dependOnClassesThat().resideInAnyPackage(INTERNAL + "..", FORMATS + "..")
                .because("the API's value types are what every stage hands up, so they sit below the stages; the "
                        + "facade reaches the pipeline through CpuProfilerProvider (a ServiceLoader), so no package "
                        + "of the core is in a cycle")
                .check(production);
    }

    @Test
    void noPackageCycles() {
        slices().matching(INTERNAL + ".(*)..").should().beFreeOfCycles().check(production);
    }

    @Test
    void theCoreHasNoSpringImport() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.springframework..")
                .because("profiler-core is plain Java; the Spring side lives in the autoconfigure module")
                .check(production);
    }

    @Test
    void theApiShowsNoInternalTypeInItsSignatures() {
        classes().that().resideInAnyPackage(API, FORMATS).and().arePublic()
                .should(exposeNoInternalType())
                .because("what a user of " + API + " can call or read must be typed by the API itself, so that "
                        + INTERNAL + " can change without breaking them")
                .check(production);
    }

    @Test
    void theApiIsSmall() {
        Set<String> api = production.stream()
                .filter(c -> c.getPackageName().equals(API) || c.getPackageName().equals(FORMATS))
                .filter(c -> c.getModifiers().contains(JavaModifier.PUBLIC) && c.isTopLevelClass())
                .map(JavaClass::getName).collect(Collectors.toCollection(java.util.TreeSet::new));
        assertThat(api).as("public top-level types of the API").hasSizeLessThanOrEqualTo(MAX_PUBLIC_API_TYPES);
    }

    private static ArchCondition<JavaClass> exposeNoInternalType() {
        DescribedPredicate<JavaClass> internal = DescribedPredicate.describe("internal",
                c -> c.getPackageName().startsWith(INTERNAL));
        return new ArchCondition<>("expose no type of " + INTERNAL + " in a public signature") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                if (type.getSuperclass().map(s -> s.toErasure()).filter(internal).isPresent()) {
                    events.add(SimpleConditionEvent.violated(type, type.getName() + " extends an internal type"));
                }
                for (JavaCodeUnit unit : type.getCodeUnits()) {
                    if (!unit.getModifiers().contains(JavaModifier.PUBLIC)) {
                        continue;
                    }
                    Set<JavaClass> involved = new java.util.HashSet<>(unit.getReturnType().getAllInvolvedRawTypes());
                    unit.getParameterTypes().forEach(p -> involved.addAll(p.getAllInvolvedRawTypes()));
                    unit.getThrowsClause().getTypes().forEach(involved::add);
                    involved.stream().filter(internal).forEach(c -> events.add(SimpleConditionEvent.violated(unit,
                            unit.getFullName() + " shows " + c.getName())));
                }
                for (JavaField field : type.getFields()) {
                    if (field.getModifiers().contains(JavaModifier.PUBLIC)) {
                        field.getType().getAllInvolvedRawTypes().stream().filter(internal).forEach(c -> events.add(
                                SimpleConditionEvent.violated(field, field.getFullName() + " shows " + c.getName())));
                    }
                }
            }
        };
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
