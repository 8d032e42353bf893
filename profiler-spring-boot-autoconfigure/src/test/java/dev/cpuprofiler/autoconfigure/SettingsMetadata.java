package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfilerSettings;
import dev.cpuprofiler.Setting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Spring Boot's additional configuration metadata for the settings of {@link CpuProfilerSettings}: each
 * property's description and default, and the values of the enumerated ones. The file
 * {@value #FILE} is this text, committed: Spring's configuration processor merges it into the metadata it
 * derives from {@link CpuProfilerProperties}, so IDEs show what the catalogue declares. {@code SettingsMetadataTest}
 * fails when the file and the catalogue differ; {@link #main} (or that test with
 * {@code -Dcpuprofiler.update-metadata=true}) rewrites it.
 */
public final class SettingsMetadata {

    /** The committed file, relative to this module's directory. */
    static final String FILE = "src/main/resources/META-INF/additional-spring-configuration-metadata.json";

    private SettingsMetadata() {
    }

    /** Rewrites {@value #FILE}, or the file {@code args[0]}; run from this module's directory. */
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : FILE);
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, json(), StandardCharsets.UTF_8);
    }

    /** The metadata as JSON. */
    public static String json() {
        List<String> properties = new ArrayList<>();
        List<String> hints = new ArrayList<>();
        for (Setting<?> setting : CpuProfilerSettings.all()) {
            properties.add(property(setting));
            if (!setting.choices().isEmpty()) {
                List<String> values = new ArrayList<>();
                for (Setting.Choice choice : setting.choices()) {
                    values.add("{ \"value\": " + string(choice.id()) + ", \"description\": "
                            + string(choice.description()) + " }");
                }
                hints.add("    {\n      \"name\": " + string(setting.property()) + ",\n      \"values\": [\n        "
                        + String.join(",\n        ", values) + "\n      ]\n    }");
            }
        }
        return "{\n  \"properties\": [\n" + String.join(",\n", properties) + "\n  ],\n  \"hints\": [\n"
                + String.join(",\n", hints) + "\n  ]\n}\n";
    }

    private static String property(Setting<?> setting) {
        StringBuilder p = new StringBuilder("    {\n      \"name\": ").append(string(setting.property()))
                .append(",\n      \"description\": ").append(string(setting.description()));
        String defaultText = setting.defaultText();
        if (defaultText != null) {
            boolean literal = setting.type() == Boolean.class || Number.class.isAssignableFrom(setting.type())
                    && setting.type() != Long.class;
            p.append(",\n      \"defaultValue\": ").append(literal ? defaultText : string(defaultText));
        }
        return p.append("\n    }").toString();
    }

    private static String string(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
