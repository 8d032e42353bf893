package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.InvalidOptionException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks {@code profiler.cpu.export.*} values when the exporter is built. A bad value throws
 * {@link InvalidOptionException}, which Spring Boot's failure analysis reports naming the property, instead of
 * surfacing later as pushes that fail one by one.
 */
final class ExportSettings {

    static final String PREFIX = "profiler.cpu.export.";
    /** Label names Pyroscope accepts (Prometheus-style); the value must not break the name{k=v,...} syntax. */
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    /** Set by the exporter from each profile; a configured label of the same name would be ambiguous. */
    static final String TRIGGER_LABEL = "trigger";
    static final String ENGINE_LABEL = "engine";

    private ExportSettings() {
    }

    /** An absolute http(s) URL with a host, without a trailing slash. */
    static URI baseUrl(String property, String value) {
        String allowed = "an http:// or https:// URL with a host, e.g. http://localhost:4040";
        if (value == null || value.isBlank()) {
            throw new InvalidOptionException(PREFIX + property, value, allowed);
        }
        try {
            URI uri = new URI(value.trim());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getQuery() != null
                    || uri.getFragment() != null) {
                throw new InvalidOptionException(PREFIX + property, value, allowed);
            }
            String text = uri.toString();
            while (text.endsWith("/")) {
                text = text.substring(0, text.length() - 1);
            }
            return URI.create(text);
        } catch (URISyntaxException e) {
            throw new InvalidOptionException(PREFIX + property, value, allowed);
        }
    }

    static Duration positive(String property, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidOptionException(PREFIX + property, value, "must be positive, e.g. 10s");
        }
        return value;
    }

    static int queueCapacity(int value) {
        if (value < 1 || value > 1000) {
            throw new InvalidOptionException(PREFIX + "queue-capacity", value, "must be between 1 and 1000");
        }
        return value;
    }

    /** {@code pprof} or {@code jfr}, any case. */
    static String pyroscopeFormat(String value) {
        String format = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        if (!format.equals(PprofBody.FORMAT) && !format.equals(JfrBody.FORMAT)) {
            throw new InvalidOptionException(PREFIX + "pyroscope.format", value, "must be one of pprof, jfr");
        }
        return format;
    }

    static Map<String, String> pyroscopeLabels(Map<String, String> labels) {
        Map<String, String> checked = new LinkedHashMap<>();
        labels.forEach((name, value) -> {
            String property = PREFIX + "pyroscope.labels." + name;
            if (!LABEL_NAME.matcher(name).matches() || name.equals(TRIGGER_LABEL) || name.equals(ENGINE_LABEL)) {
                throw new InvalidOptionException(property, value, "a label name is letters, digits and underscores, "
                        + "not starting with a digit, and not trigger or engine (the profiler sets those)");
            }
            if (value == null || value.isEmpty() || value.chars().anyMatch(c -> "{},=".indexOf(c) >= 0)) {
                throw new InvalidOptionException(property, value, "a label value is not empty and has no '{', '}', "
                        + "',' or '='");
            }
            checked.put(name, value);
        });
        return checked;
    }

    /** The configured name, else {@code spring.application.name}, else {@code application}. */
    static String applicationName(String configured, String springApplicationName) {
        if (configured != null && !configured.isBlank()) {
            return configured.trim();
        }
        return springApplicationName != null && !springApplicationName.isBlank() ? springApplicationName.trim()
                : "application";
    }
}
