package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ConcurrencyDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.CpuDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.LookbackStatusDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ProfileDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ProfileSummary;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.SessionDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.StatusDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ThreadDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.TriggerDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.springframework.util.MimeType;

/**
 * The status as one self-contained HTML page for a browser: state, CPU figures, a chart of the recent CPU%
 * ({@link StatusChart}), the top threads, the latest profile's ratios and the retained profiles with links to each
 * format. It loads nothing from the network: its style and script are inline ({@code status-page.css},
 * {@code status-page.js} next to this class), allowed by a nonce made fresh for each answer, and the script refreshes
 * the page from the JSON status every few seconds.
 * <p>
 * Every name (threads, methods, reasons) is HTML-escaped here, and the script sets them with {@code textContent}: a
 * thread named {@code <img src=x onerror=…>} is text on the page. Links are relative to the endpoint's own path, so the
 * page works under any actuator base path and behind a proxy.
 * <p>
 * The nonce travels to the web layer as a {@code csp-nonce} parameter of the answer's content type, the one header
 * Actuator's {@code WebEndpointResponse} carries; {@link CpuProfilerResponseAdvice} (Spring MVC) and
 * {@link CpuProfilerEndpointWebFilter} (WebFlux) move it into the {@code Content-Security-Policy} header.
 */
final class StatusPage {

    /** The {@code Content-Type} parameter that carries the nonce to the web layer; never sent to the client. */
    static final String NONCE_PARAMETER = "csp-nonce";

    private static final String CSS = resource("status-page.css");
    private static final String SCRIPT = resource("status-page.js");
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final BooleanSupplier writesAllowed;
    private final Duration defaultDuration;

    /**
     * @param writesAllowed whether a POST to the endpoint is allowed (access {@code unrestricted})
     * @param defaultDuration the configured profile duration, the button's default
     */
    StatusPage(BooleanSupplier writesAllowed, Duration defaultDuration) {
        this.writesAllowed = writesAllowed;
        this.defaultDuration = defaultDuration;
    }

    /** A page and the content type that carries its nonce. */
    record Rendered(String html, String nonce) {

        MimeType contentType() {
            return new MimeType("text", "html", Map.of("charset", "UTF-8", NONCE_PARAMETER, nonce));
        }
    }

    /** The {@code Content-Security-Policy} for a page with this nonce: nothing but its own inline style and script. */
    static String policy(String nonce) {
        return "default-src 'none'; style-src 'nonce-" + nonce + "'; script-src 'nonce-" + nonce + "'; "
                + "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    }

    Rendered render(StatusDescriptor s) {
        String nonce = nonce();
        StringBuilder h = new StringBuilder(16384);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta name=\"color-scheme\" content=\"light dark\">\n")
                .append("<title>CPU profiler: ").append(escape(s.state())).append("</title>\n")
                .append("<style nonce=\"").append(nonce).append("\">\n").append(CSS).append("</style>\n")
                .append("</head>\n<body>\n<header><h1>CPU profiler</h1><span id=\"state\" class=\"badge state-")
                .append(escape(s.state().toLowerCase(Locale.ROOT))).append("\">").append(escape(s.state()))
                .append("</span><span id=\"updated\" class=\"muted\">").append(escape(time(s.history() == null ? null
                        : s.history().at()))).append("</span></header>\n<main>\n");
        cards(h, s);
        h.append("<section class=\"wide\"><h2>CPU over the last minutes</h2>\n<figure id=\"chart\">")
                .append(StatusChart.svg(s)).append("</figure>\n<p class=\"legend\"><span class=\"key key-samples\">")
                .append("</span>CPU% each sample <span class=\"key key-baseline\"></span>baseline (rolling average) ")
                .append("<span class=\"key key-threshold\"></span>threshold <span class=\"key key-session\"></span>")
                .append("profiling</p></section>\n");
        profileNow(h, s);
        threads(h, s);
        latest(h, s.latestProfile());
        profiles(h, s);
        h.append("</main>\n<footer class=\"muted\">Refreshes itself every few seconds from the ")
                .append("<a href=\"cpuprofiler?format=json\">JSON status</a>. ")
                .append("<span id=\"refresh-error\" class=\"error\"></span></footer>\n")
                .append("<script nonce=\"").append(nonce).append("\">\n").append(SCRIPT).append("</script>\n")
                .append("</body></html>\n");
        return new Rendered(h.toString(), nonce);
    }

    private static void cards(StringBuilder h, StatusDescriptor s) {
        CpuDescriptor cpu = s.cpu();
        h.append("<section class=\"cards\">\n");
        card(h, "card-state", "State", stateDetail(s));
        card(h, "card-cpu", "CPU now", percent(cpu.latestPercent()) + " of " + number(cpu.effectiveCpuCount())
                + " CPUs");
        card(h, "card-average", "Average / threshold", percent(cpu.averagePercent()) + " / "
                + percent(cpu.thresholdPercent()));
        card(h, "card-source", "CPU source", cpu.source() + ", " + number(cpu.effectiveCpuCount())
                + " effective CPUs (" + cpu.effectiveCpuOrigin() + ")"
                + (cpu.fallbackReason() == null ? "" : "; " + cpu.fallbackReason()));
        LookbackStatusDescriptor l = s.lookback();
        card(h, "card-lookback", "Look-back", l == null ? "–" : l.state() + (l.reason() == null ? "" : ": "
                + l.reason()));
        h.append("</section>\n");
    }

    /** The state in words: progress of a session, time left of a cooldown, or that the trigger is off. */
    static String stateDetail(StatusDescriptor s) {
        SessionDescriptor session = s.session();
        TriggerDescriptor t = s.trigger();
        String state = s.state();
        if (session != null) {
            return "profiling (" + session.trigger() + ", " + session.engine() + "): " + seconds(session.elapsed())
                    + " of " + seconds(session.duration()) + ", " + session.samples() + " samples";
        }
        if (t != null && !t.enabled()) {
            return "trigger off: monitoring only, on-demand profiles work";
        }
        if ("COOLDOWN".equals(state) && t.cooldownRemaining() != null) {
            return "cooldown, " + seconds(t.cooldownRemaining()) + " left";
        }
        if (t != null && t.startupGraceRemaining() != null) {
            return "monitoring; the trigger waits for the start-up grace, " + seconds(t.startupGraceRemaining())
                    + " left";
        }
        return state.toLowerCase(Locale.ROOT);
    }

    private static void card(StringBuilder h, String id, String title, String value) {
        h.append("<div class=\"card\"><h3>").append(escape(title)).append("</h3><p id=\"").append(id).append("\">")
                .append(escape(value)).append("</p></div>\n");
    }

    private void profileNow(StringBuilder h, StatusDescriptor s) {
        h.append("<section class=\"wide\"><h2>Profile now</h2>\n");
        SessionDescriptor session = s.session();
        if (writesAllowed.getAsBoolean()) {
            h.append("<p class=\"row\"><label for=\"duration\">Seconds</label> <input id=\"duration\" type=\"number\" ")
                    .append("min=\"1\" max=\"3600\" value=\"").append(Math.max(1, defaultDuration.toSeconds()))
                    .append("\"> <button id=\"start\" type=\"button\">Start a profile</button></p>\n");
        } else {
            h.append("<p id=\"writes-off\">Starting a profile from here needs <code>management.endpoint.cpuprofiler")
                    .append(".access: unrestricted</code>; the endpoint is read-only now.</p>\n");
        }
        h.append("<p id=\"session\">").append(escape(session == null ? "No profile is recording."
                : "Recording " + session.id() + ": " + seconds(session.elapsed()) + " of "
                        + seconds(session.duration()) + ", " + session.samples() + " samples")).append("</p>\n")
                .append("<progress id=\"session-progress\" max=\"1\" value=\"").append(session == null ? "0"
                        : number(progress(session))).append("\"").append(session == null ? " hidden" : "")
                .append("></progress>\n<p id=\"start-result\" class=\"muted\"></p></section>\n");
    }

    private static double progress(SessionDescriptor s) {
        double total = Duration.parse(s.duration()).toMillis();
        return total <= 0 ? 0 : Math.min(1, Duration.parse(s.elapsed()).toMillis() / total);
    }

    private static void threads(StringBuilder h, StatusDescriptor s) {
        h.append("<section><h2>Top threads</h2>\n<table><thead><tr><th>Thread</th><th class=\"num\">CPU% of a ")
                .append("core</th><th>Label</th></tr></thead><tbody id=\"threads\">\n");
        if (s.threads().isEmpty()) {
            h.append("<tr><td colspan=\"3\" class=\"muted\">No thread used CPU lately.</td></tr>\n");
        }
        for (ThreadDescriptor t : s.threads()) {
            h.append("<tr><td class=\"name\">").append(escape(t.name())).append("</td><td class=\"num\">")
                    .append(percent(t.cpuPercent())).append("</td><td>").append(escape(label(t.label())))
                    .append("</td></tr>\n");
        }
        h.append("</tbody></table></section>\n");
    }

    private static void latest(StringBuilder h, @Nullable ProfileDescriptor p) {
        h.append("<section><h2>Latest profile</h2>\n<dl id=\"latest\">");
        if (p == null) {
            h.append("<dt>none yet</dt><dd>A profile appears when the average passes the threshold, or on demand.</dd>");
        } else {
            dl(h, "Profile", p.id() + " (" + p.trigger() + ", " + p.engine() + ")");
            dl(h, "CPU while recording", percent(p.cpuPercent()));
            dl(h, "Hot method", p.hotMethods().isEmpty() ? "–" : p.hotMethods().get(0).method() + " ("
                    + percent(p.hotMethods().get(0).selfPercent()) + " self)");
            ConcurrencyDescriptor c = p.concurrency();
            if (c != null) {
                dl(h, "Utilization", percent(c.utilization() * 100) + " of " + number(c.effectiveCpus()) + " CPUs");
                dl(h, "Bottleneck", percent(c.bottleneck() * 100) + " of the time at least one thread ran");
            }
        }
        h.append("</dl></section>\n");
    }

    private static void dl(StringBuilder h, String term, String value) {
        h.append("<dt>").append(escape(term)).append("</dt><dd>").append(escape(value)).append("</dd>");
    }

    private static void profiles(StringBuilder h, StatusDescriptor s) {
        h.append("<section class=\"wide\"><h2>Profiles</h2>\n<div class=\"scroll\"><table><thead><tr><th>Started</th>")
                .append("<th>Trigger</th><th>Engine</th><th class=\"num\">Duration</th><th class=\"num\">Samples</th>")
                .append("<th>Top method</th><th>Open</th></tr></thead><tbody id=\"profiles\">\n");
        if (s.profiles().isEmpty()) {
            h.append("<tr><td colspan=\"7\" class=\"muted\">None recorded yet.</td></tr>\n");
        }
        for (ProfileSummary p : s.profiles()) {
            // As the script's encodeURIComponent: a path segment, so a space is %20, not '+'.
            String base = "cpuprofiler/" + URLEncoder.encode(p.id(), StandardCharsets.UTF_8).replace("+", "%20");
            h.append("<tr><td>").append(escape(time(p.startedAt()))).append("</td><td>").append(escape(p.trigger()))
                    .append("</td><td>").append(escape(p.engine())).append("</td><td class=\"num\">")
                    .append(escape(seconds(p.duration()))).append("</td><td class=\"num\">").append(p.samples())
                    .append("</td><td class=\"name\">").append(escape(p.hotMethod() == null ? "–" : p.hotMethod()))
                    .append("</td><td class=\"links\">");
            link(h, base + "?format=html", "flame graph");
            link(h, base + "?format=text", "text");
            link(h, base + "?format=collapsed", "collapsed");
            link(h, base + "?format=pprof", "pprof");
            if (p.jfrFile() != null) {
                link(h, base + "?format=jfr", "jfr");
            }
            h.append("</td></tr>\n");
        }
        h.append("</tbody></table></div></section>\n");
    }

    private static void link(StringBuilder h, String href, String text) {
        h.append("<a href=\"").append(escape(href)).append("\">").append(escape(text)).append("</a> ");
    }

    private static String label(String label) {
        return switch (label) {
            case "CPU_BOUND" -> "CPU-bound";
            case "MIXED" -> "mixed";
            case "MOSTLY_WAITING" -> "mostly waiting";
            default -> label;
        };
    }

    static String percent(@Nullable Double p) {
        return p == null ? "–" : String.format(Locale.ROOT, "%.1f%%", p);
    }

    private static String number(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.2f", d)
                .replaceAll("0+$", "");
    }

    /** {@code 1 min 9 s} for an ISO duration; {@code –} for none. */
    static String seconds(@Nullable String isoDuration) {
        if (isoDuration == null) {
            return "–";
        }
        long s = Math.max(0, Math.round(Duration.parse(isoDuration).toMillis() / 1000.0));
        if (s >= 3600) {
            return s / 3600 + " h " + s % 3600 / 60 + " min";
        }
        return s >= 60 ? s / 60 + " min " + s % 60 + " s" : s + " s";
    }

    private static String time(@Nullable String iso) {
        return iso == null ? "–" : TIME.format(Instant.parse(iso));
    }

    private static String nonce() {
        byte[] bytes = new byte[18];
        RANDOM.nextBytes(bytes);
        // base64url: a valid CSP nonce and a MIME parameter token alike (no '/', '+' or '=').
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static String escape(String s) {
        return Replies.escape(s);
    }

    private static String resource(String name) {
        try (InputStream in = StatusPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " next to " + StatusPage.class);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
