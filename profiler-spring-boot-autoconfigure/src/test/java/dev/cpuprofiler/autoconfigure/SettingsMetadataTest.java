package dev.cpuprofiler.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.autoconfigure.export.ExportProperties;
import dev.cpuprofiler.CpuProfilerSettings;
import dev.cpuprofiler.Setting;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The settings declared in {@link CpuProfilerSettings} reach Spring's configuration metadata whole, and README's
 * settings tables say the same. The export settings ({@value #EXPORT}) are declared by {@link ExportProperties}
 * instead: they configure the transport, not the profiler, and README lists them in a table of their own.
 */
class SettingsMetadataTest {

    private static final String UPDATE = "cpuprofiler.update-metadata";
    static final String EXPORT = "profiler.cpu.export.";

    @Test
    void theCommittedAdditionalMetadataIsWrittenFromTheCatalogue() throws IOException {
        Path file = Path.of(SettingsMetadata.FILE);
        String expected = SettingsMetadata.json();
        if (Boolean.getBoolean(UPDATE)) {
            Files.writeString(file, expected, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(file, StandardCharsets.UTF_8))
                .as("%s is out of date: run this test with -D%s=true (or SettingsMetadata.main) and commit the file",
                        file, UPDATE)
                .isEqualTo(expected);
    }

    @Test
    void everySettingHasItsDescriptionAndDefaultInTheMetadata() throws IOException {
        Map<String, JsonNode> properties = metadataProperties();
        List<String> cpuKeys = properties.keySet().stream()
                .filter(n -> n.startsWith("profiler.cpu.") && !n.startsWith(EXPORT)).sorted().toList();
        assertThat(cpuKeys).as("profiler.cpu.* in the metadata")
                .isEqualTo(CpuProfilerSettings.all().stream().map(Setting::property).sorted().toList());
        for (Setting<?> setting : CpuProfilerSettings.all()) {
            JsonNode p = properties.get(setting.property());
            assertThat(p.path("description").asString()).as(setting.property()).isEqualTo(setting.description());
            assertThat(p.has("defaultValue") ? p.get("defaultValue").asString() : null).as(setting.property())
                    .isEqualTo(setting.defaultText());
        }
        properties.forEach((name, p) -> {
            if (name.startsWith("profiler.")) {
                assertThat(p.path("description").asString("")).as(name).isNotBlank();
            }
        });
        assertThat(properties.get("profiler.enabled").path("defaultValue").asString()).isEqualTo("true");
        List<String> exportKeys = properties.keySet().stream().filter(n -> n.startsWith(EXPORT)).toList();
        assertThat(exportKeys).as("the export settings").contains(EXPORT + "pyroscope.url", EXPORT + "otlp.endpoint");
        for (String key : exportKeys) {
            assertThat(properties.get(key).path("sourceType").asString()).as(key)
                    .startsWith(ExportProperties.class.getName());
        }
    }

    @Test
    void theEnumeratedSettingsListTheirValues() throws IOException {
        JsonNode metadata = metadata();
        for (Setting<?> setting : CpuProfilerSettings.all()) {
            if (setting.choices().isEmpty()) {
                continue;
            }
            List<String> values = new ArrayList<>();
            for (JsonNode hint : metadata.path("hints")) {
                if (hint.path("name").asString().equals(setting.property())) {
                    hint.path("values").forEach(v -> values.add(v.path("value").asString()));
                }
            }
            assertThat(values).as(setting.property())
                    .isEqualTo(setting.choices().stream().map(Setting.Choice::id).toList());
        }
    }

    @Test
    void readmeSettingsTableAgreesWithTheMetadata() throws IOException {
        Path readme = Path.of("../README.md");
        Assumptions.assumeTrue(Files.isRegularFile(readme), () -> {
            System.out.println("README's settings table not checked: " + readme.toAbsolutePath() + " is absent");
            return "no README.md next to this module";
        });
        Map<String, String> table = readmeSettings(Files.readAllLines(readme, StandardCharsets.UTF_8));

        Map<String, String> metadata = new LinkedHashMap<>();
        metadataProperties().forEach((name, p) -> {
            if (name.startsWith("profiler.")) {
                metadata.put(name, p.has("defaultValue") ? p.get("defaultValue").asString() : "unset");
            }
        });
        assertThat(table.keySet()).as("README's settings").containsExactlyInAnyOrderElementsOf(metadata.keySet());
        table.forEach((name, readmeDefault) -> assertThat(readmeDefault).as("README's default of %s", name)
                .isEqualTo(metadata.get(name)));
        assertThat(table.keySet().stream().filter(n -> n.startsWith("profiler.cpu.") && !n.startsWith(EXPORT))
                .toList())
                .as("README's order of the profiler.cpu.* rows")
                .isEqualTo(CpuProfilerSettings.all().stream().map(Setting::property).toList());
    }

    private static final Pattern ROW = Pattern.compile("^\\| `(profiler\\.[a-z.-]+)` \\| ([^|]*) \\|");
    private static final Pattern FIRST_CODE = Pattern.compile("^`([^`]*)`");

    /**
     * The tables whose header is {@code | property | default | ...} (the settings, and the export settings): each
     * property and its default, in README's order; a property listed twice fails.
     */
    static Map<String, String> readmeSettings(List<String> lines) {
        Map<String, String> settings = new LinkedHashMap<>();
        int tables = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("| property | default |")) {
                continue;
            }
            tables++;
            for (i += 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
                Matcher row = ROW.matcher(lines.get(i));
                assertThat(row.find()).as("a settings row: %s", lines.get(i)).isTrue();
                String cell = row.group(2).trim();
                Matcher code = FIRST_CODE.matcher(cell);
                assertThat(settings.put(row.group(1), code.find() ? code.group(1)
                        : cell.startsWith("unset") ? "unset" : cell)).as("%s listed once", row.group(1)).isNull();
            }
        }
        assertThat(tables).as("README has a table headed | property | default |").isPositive();
        return settings;
    }

    private static Map<String, JsonNode> metadataProperties() throws IOException {
        Map<String, JsonNode> properties = new LinkedHashMap<>();
        for (JsonNode p : metadata().path("properties")) {
            assertThat(properties.put(p.path("name").asString(), p)).as("%s listed once", p.path("name")).isNull();
        }
        return properties;
    }

    /** This module's {@code spring-configuration-metadata.json}, as the configuration processor left it. */
    private static JsonNode metadata() throws IOException {
        for (URL url : Collections.list(SettingsMetadataTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
            try (InputStream in = url.openStream()) {
                JsonNode metadata = new ObjectMapper().readTree(in);
                for (JsonNode group : metadata.path("groups")) {
                    if (group.path("type").asString().equals(CpuProfilerProperties.class.getName())) {
                        return metadata;
                    }
                }
            }
        }
        throw new AssertionError("no spring-configuration-metadata.json with " + CpuProfilerProperties.class);
    }
}
