package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.Profile;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Grafana Pyroscope's ingest API: {@code POST {url}/ingest?name={app}{k=v,...}&from=&until=&format=&spyName=&sampleRate=}
 * with the profile as the raw body. Labels are the configured ones plus {@code trigger} and {@code engine};
 * {@code from}/{@code until} are the profile's time range in epoch seconds (from its look-back part's start when it
 * has one, since the body holds those samples too).
 */
public final class PyroscopeTarget implements ExportTarget {

    /** What Pyroscope's own Java agent sends: Pyroscope shows the profile as a Java one. */
    static final String SPY_NAME = "javaspy";
    /** Set from each profile; a configured label of the same name would be ambiguous. */
    static final String TRIGGER_LABEL = "trigger";
    static final String ENGINE_LABEL = "engine";

    private final URI ingest;
    private final String applicationName;
    private final Map<String, String> labels;
    private final ProfileBody body;
    private final Duration timeout;
    private final Map<String, String> headers;

    /**
     * @param url Pyroscope's base URL (checked: absolute http(s), no trailing slash)
     * @param labels checked label names and values
     * @param auth the {@code Authorization} header's value, or null
     * @param tenantId the {@code X-Scope-OrgID} header's value, or null
     */
    public PyroscopeTarget(URI url, String applicationName, Map<String, String> labels, ProfileBody body,
            Duration timeout, String auth, String tenantId) {
        this.ingest = URI.create(url + "/ingest");
        this.applicationName = Objects.requireNonNull(applicationName, "applicationName");
        this.labels = Map.copyOf(labels);
        this.body = Objects.requireNonNull(body, "body");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        Map<String, String> h = new LinkedHashMap<>();
        if (auth != null) {
            h.put("Authorization", auth);
        }
        if (tenantId != null && !tenantId.isBlank()) {
            h.put("X-Scope-OrgID", tenantId.trim());
        }
        this.headers = Map.copyOf(h);
    }

    /** {@code Basic base64(user:password)}. */
    public static String basicAuth(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    public static String bearer(String token) {
        return "Bearer " + token;
    }

    @Override
    public String id() {
        return "pyroscope";
    }

    @Override
    public Optional<String> unencryptedCredentials() {
        return UnencryptedCredentials.of(ingest, headers.keySet());
    }

    @Override
    public HttpRequest request(Profile profile) throws UnsendableProfileException {
        byte[] bytes;
        try {
            bytes = body.encode(profile).orElseThrow(() -> new UnsendableProfileException("profile " + profile.id()
                    + " has no " + body.format() + " body" + (JfrBody.FORMAT.equals(body.format())
                            ? " (its JFR recording was not kept or is gone)" : "")));
        } catch (IOException e) {
            throw new UnsendableProfileException("cannot read the " + body.format() + " body of " + profile.id()
                    + ": " + e, e);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(ingest + "?" + query(profile)))
                .timeout(timeout)
                .header("Content-Type", body.contentType())
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes));
        headers.forEach(request::header);
        return request.build();
    }

    /** The query string, each value URL-encoded (the name's braces, commas and equals signs included). */
    String query(Profile profile) {
        Profile.Recording recording = profile.recording();
        Instant from = profile.lookback() != null && profile.lookback().startedAt() != null
                && profile.lookback().startedAt().isBefore(recording.startedAt()) ? profile.lookback().startedAt()
                        : recording.startedAt();
        long fromSeconds = from.getEpochSecond();
        // Rounded up, and at least a second after from: Pyroscope spreads the samples over [from, until].
        long untilSeconds = Math.max(fromSeconds + 1, recording.endedAt().getEpochSecond()
                + (recording.endedAt().getNano() > 0 ? 1 : 0));
        long period = Math.max(1, recording.samplingPeriod() == null ? 10_000_000
                : recording.samplingPeriod().toNanos());
        long sampleRate = Math.max(1, Math.round(1e9 / period));
        StringJoiner q = new StringJoiner("&");
        q.add("name=" + encode(name(profile)));
        q.add("from=" + fromSeconds);
        q.add("until=" + untilSeconds);
        q.add("format=" + encode(body.format()));
        q.add("spyName=" + SPY_NAME);
        q.add("sampleRate=" + sampleRate);
        return q.toString();
    }

    /** {@code app{k=v,...,trigger=cpu,engine=jfr-execution}}, labels sorted so a series keeps one name. */
    String name(Profile profile) {
        Map<String, String> all = new TreeMap<>(labels);
        all.put(TRIGGER_LABEL, profile.trigger().name().toLowerCase(Locale.ROOT));
        all.put(ENGINE_LABEL, profile.recording().engine().id());
        StringJoiner name = new StringJoiner(",", applicationName + "{", "}");
        all.forEach((k, v) -> name.add(k + "=" + v));
        return name.toString();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
