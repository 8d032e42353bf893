package dev.cpuprofiler.secured;

import dev.cpuprofiler.fixtures.Chromium;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One page of headless Chromium, driven over the DevTools protocol as a person would use it: go to a URL, type into
 * the page and press its buttons (JavaScript evaluated in the page), wait for what it shows, take a screenshot. Each
 * instance is its own browser with a fresh profile: no cookie, no session, no cached credentials.
 */
final class DevToolsPage implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");

    private final Process browser;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    /** The commands sent and not yet answered, by id. */
    private final Map<Integer, CompletableFuture<JsonNode>> pending;

    private DevToolsPage(Process browser, Path profile, WebSocket socket,
            Map<Integer, CompletableFuture<JsonNode>> pending) {
        this.browser = browser;
        this.profile = profile;
        this.socket = socket;
        this.pending = pending;
    }

    /** Starts the browser and connects to its one page. */
    static DevToolsPage open(String chromium) throws Exception {
        Path profile = Files.createTempDirectory("cpuprofiler-devtools");
        List<String> command = Chromium.headless(chromium, profile);
        command.addAll(List.of("--window-size=1280,1000", "--remote-debugging-port=0", "about:blank"));
        Process browser = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            URI browserSocket = listeningOn(browser);
            HttpClient http = HttpClient.newHttpClient();
            URI list = URI.create("http://" + browserSocket.getAuthority() + "/json/list");
            String pageSocket = null;
            for (int i = 0; i < 50 && pageSocket == null; i++) {
                for (JsonNode target : JSON.readTree(http.send(HttpRequest.newBuilder(list).build(),
                        HttpResponse.BodyHandlers.ofString()).body())) {
                    if (target.path("type").asString().equals("page")) {
                        pageSocket = target.path("webSocketDebuggerUrl").asString();
                    }
                }
                if (pageSocket == null) {
                    Thread.sleep(100);
                }
            }
            if (pageSocket == null) {
                throw new IllegalStateException("Chromium opened no page");
            }
            Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
            WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create(pageSocket), new Replies(pending))
                    .get(30, TimeUnit.SECONDS);
            return new DevToolsPage(browser, profile, socket, pending);
        } catch (Exception | Error e) {
            browser.destroyForcibly();
            throw e;
        }
    }

    private static URI listeningOn(Process browser) throws IOException {
        BufferedReader err = new BufferedReader(new InputStreamReader(browser.getErrorStream(),
                StandardCharsets.UTF_8));
        StringBuilder said = new StringBuilder();
        for (String line; (line = err.readLine()) != null; ) {
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                // Keep draining what it says, so that it never blocks on a full pipe.
                Thread drain = new Thread(() -> err.lines().forEach(l -> { }), "chromium-stderr");
                drain.setDaemon(true);
                drain.start();
                return URI.create(m.group(1));
            }
            said.append(line).append('\n');
        }
        throw new IllegalStateException("Chromium ended without opening DevTools:\n" + said);
    }

    /** Sends one DevTools command and waits for its result. */
    JsonNode send(String method, Map<String, Object> params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        pending.put(id, reply);
        socket.sendText(JSON.writeValueAsString(Map.of("id", id, "method", method, "params", params)), true)
                .get(30, TimeUnit.SECONDS);
        JsonNode answer = reply.get(30, TimeUnit.SECONDS);
        if (answer.has("error")) {
            throw new IllegalStateException(method + " failed: " + answer.path("error"));
        }
        return answer.path("result");
    }

    /**
     * Goes to the URL and waits until the new document (after any redirects) has loaded: the old one is marked first,
     * so that its own {@code readyState} is never taken for the new one's.
     */
    void navigate(String url) throws Exception {
        evaluate("window.cpuprofilerLeftBehind = true");
        send("Page.navigate", Map.of("url", url));
        waitFor("the page at " + url + " to load",
                "!window.cpuprofilerLeftBehind && document.readyState === 'complete'", Boolean.TRUE::equals,
                Duration.ofSeconds(30));
    }

    /** The value of a JavaScript expression in the page (a promise is awaited); null for undefined. */
    Object evaluate(String expression) throws Exception {
        JsonNode result = send("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true,
                "awaitPromise", true));
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException("'" + expression + "' threw: " + result.path("exceptionDetails"));
        }
        JsonNode value = result.path("result").path("value");
        return value.isMissingNode() || value.isNull() ? null : JSON.treeToValue(value, Object.class);
    }

    /** Evaluates the expression until its value passes; fails with the last value seen. */
    Object waitFor(String what, String expression, Predicate<Object> done, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Object last = null;
        while (System.nanoTime() < deadline) {
            try {
                last = evaluate(expression);
                if (done.test(last)) {
                    return last;
                }
            } catch (IllegalStateException navigating) {
                last = navigating.getMessage();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("waited " + timeout + " for " + what + "; last: " + last + " at "
                + evaluate("location.href"));
    }

    /** A PNG of what the page shows. */
    void screenshot(Path png) throws Exception {
        String data = send("Page.captureScreenshot", Map.of("format", "png")).path("data").asString();
        Files.createDirectories(png.toAbsolutePath().getParent());
        Files.write(png, Base64.getDecoder().decode(data));
    }

    @Override
    public void close() throws Exception {
        socket.abort();
        // Chromium's helper processes (its network service among them) may outlive the browser's main process for a
        // moment and still write into the profile directory: each is ended and waited for too.
        java.util.List<ProcessHandle> helpers = browser.descendants().toList();
        browser.destroy();
        if (!browser.waitFor(10, TimeUnit.SECONDS)) {
            browser.destroyForcibly();
        }
        // Killed at once (the browser they served is gone), then waited for together, at most 5 s in all.
        helpers.forEach(ProcessHandle::destroyForcibly);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (ProcessHandle helper : helpers) {
            try {
                helper.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // a helper still exiting: the walk below tolerates its files
            }
        }
        try (var files = Files.walk(profile)) {
            for (Path p : files.sorted((a, b) -> b.compareTo(a)).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // a file that vanished under the walk, or a profile directory left in /tmp: neither is the test's concern
        }
    }

    /** Hands each reply to the command waiting for it; events are not used. */
    private static final class Replies implements WebSocket.Listener {

        private final Map<Integer, CompletableFuture<JsonNode>> pending;
        private final StringBuilder message = new StringBuilder();

        Replies(Map<Integer, CompletableFuture<JsonNode>> pending) {
            this.pending = pending;
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            message.append(data);
            if (last) {
                JsonNode reply = JSON.readTree(message.toString());
                message.setLength(0);
                if (reply.has("id")) {
                    CompletableFuture<JsonNode> waiting = pending.remove(reply.path("id").asInt());
                    if (waiting != null) {
                        waiting.complete(reply);
                    }
                }
            }
            socket.request(1);
            return null;
        }
    }
}
