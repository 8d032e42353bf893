package dev.cpuprofiler.sample.demo;

import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The URLs the log points the user at, built from the port the server really listens on
 * ({@code local.server.port}, or {@code local.management.port} when Actuator has a port of its own).
 */
@Component
public class ProfilerUrls {

    private final Environment environment;

    public ProfilerUrls(Environment environment) {
        this.environment = environment;
    }

    /** The app itself, e.g. {@code http://localhost:8080}; valid once the web server has started. */
    public String app() {
        String port = environment.getProperty("local.server.port", environment.getProperty("server.port", "8080"));
        return "http://localhost:" + port + trimSlash(environment.getProperty("server.servlet.context-path", ""));
    }

    /** The status endpoint, e.g. {@code http://localhost:8080/actuator/cpuprofiler}. */
    public String status() {
        String managementPort = environment.getProperty("local.management.port");
        String root;
        if (managementPort != null && !managementPort.equals(environment.getProperty("local.server.port"))) {
            root = "http://localhost:" + managementPort
                    + trimSlash(environment.getProperty("management.server.base-path", ""));
        } else {
            root = app();
        }
        return root + trimSlash(environment.getProperty("management.endpoints.web.base-path", "/actuator"))
                + "/cpuprofiler";
    }

    /** One profile ({@code latest} names the newest) in a format: {@code json}, {@code text}, {@code collapsed}, {@code html}. */
    public String profile(String id, String format) {
        return status() + "/" + id + ("json".equals(format) ? "" : "?format=" + format);
    }

    private static String trimSlash(String path) {
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
