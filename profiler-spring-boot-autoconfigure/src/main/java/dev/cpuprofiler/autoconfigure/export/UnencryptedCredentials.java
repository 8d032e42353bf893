package dev.cpuprofiler.autoconfigure.export;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Credentials a target would send unencrypted: a header that authenticates, over plain {@code http}, to a host
 * other than this machine's loopback ({@code localhost}, 127.0.0.0/8, {@code ::1}), where anyone on the way can read
 * it. Judged from the URL and the headers' names alone: no value is looked at or shown, no name is resolved.
 */
final class UnencryptedCredentials {

    /**
     * The names of headers that carry a secret: {@code Authorization} (basic auth, bearer tokens), and the keys and
     * tokens vendors name their own way ({@code X-API-Key}, {@code DD-API-KEY}, {@code api-key},
     * {@code Lightstep-Access-Token}, {@code signoz-ingestion-key}, cookies). Not {@code X-Scope-OrgID}: a tenant id
     * selects a tenant and proves nothing, anyone reaching the server can send any.
     */
    private static final Pattern SECRET = Pattern.compile("(?i).*(auth|token|key|secret|password|cookie|credential).*");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private UnencryptedCredentials() {
    }

    /** What goes unencrypted to where, for a WARN, or empty when nothing secret does. */
    static Optional<String> of(URI url, Collection<String> headerNames) {
        if (!"http".equalsIgnoreCase(url.getScheme()) || loopback(url.getHost())) {
            return Optional.empty();
        }
        List<String> secret = headerNames.stream().filter(name -> SECRET.matcher(name).matches()).sorted().toList();
        if (secret.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("the " + String.join(", ", secret) + (secret.size() == 1 ? " header goes" : " headers go")
                + " unencrypted over http to " + url.getHost() + ", which is not this machine: anyone on the way can "
                + "read " + (secret.size() == 1 ? "it" : "them") + "; use an https URL");
    }

    /** {@code localhost}, or an address literal in 127.0.0.0/8 or {@code ::1}; no other name, and none resolved. */
    static boolean loopback(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.equals("localhost") || h.equals("localhost.")) {
            return true;
        }
        if (!IPV4.matcher(h).matches() && !h.contains(":")) {
            return false;
        }
        try {
            // An address literal: parsed, not looked up.
            return InetAddress.getByName(h).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
