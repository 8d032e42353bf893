package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One way to write a profile: what the endpoint serves ({@code ?format=}), what the output directory keeps and what
 * the exporters push all come from these. Each format is one class; the endpoint's formats are {@link #served()}.
 *
 * <p>No default methods: a format class initialising must not initialise this interface (and its constants).
 */
public interface ProfileFormat {

    /** The profile with its figures and its tree: the endpoint's default. */
    ProfileFormat JSON = new JsonFormat();

    /** A summary, then the tree as indented text. */
    ProfileFormat TEXT = new TextFormat();

    /** One line per stack, {@code frame;frame;frame weight}: flamegraph.pl, speedscope. */
    ProfileFormat COLLAPSED = new CollapsedFormat();

    /** A flame graph in one self-contained page. */
    ProfileFormat HTML = new FlameGraphFormat();

    /** pprof's profile.proto, gzipped: {@code go tool pprof}, Pyroscope, Grafana. */
    ProfileFormat PPROF = new PprofFormat();

    /** The engine's own JFR recording: JDK Mission Control, {@code jfr print}, IntelliJ. */
    ProfileFormat JFR = new JfrFormat();

    /**
     * OTLP profiles (schema {@code profiles/v1development}, experimental like the signal): an
     * {@code ExportProfilesServiceRequest} for a collector, naming the service and its resource attributes.
     */
    static ProfileFormat otlp(String serviceName, Map<String, String> resourceAttributes) {
        return new OtlpFormat(serviceName, resourceAttributes);
    }

    /** What {@code GET /actuator/cpuprofiler/{id}?format=} offers, in the order the docs list them. */
    static List<ProfileFormat> served() {
        return List.of(JSON, TEXT, COLLAPSED, HTML, PPROF, JFR);
    }

    /** {@code json, text, collapsed, html, pprof or jfr}: the served formats' ids, as a refusal names them. */
    static String servedIds() {
        return served().stream().map(ProfileFormat::id).collect(java.util.stream.Collectors.joining(", "))
                .replaceFirst(", (\\w+)$", " or $1");
    }

    /** A served format by its {@link #id()}, any case. */
    static Optional<ProfileFormat> of(String id) {
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        return served().stream().filter(f -> f.id().equals(wanted)).findFirst();
    }

    /** Its name in {@code ?format=} and in the exporters' settings: {@code json}, {@code pprof}, ... */
    String id();

    /** The HTTP content type, e.g. {@code text/plain;charset=UTF-8}. */
    String mediaType();

    /** The file name suffix after the profile's id, e.g. {@code .pb.gz}. */
    String extension();

    /**
     * Why this profile has nothing to write in this format (a JFR download whose recording was not kept), or empty
     * when {@link #write} will write it.
     */
    Optional<String> missing(Profile profile);

    /**
     * Writes the profile as the view selects it. Does not close {@code out}.
     *
     * @throws IOException when {@code out} fails or, for a recording, the file cannot be read
     */
    void write(Profile profile, ProfileView view, OutputStream out) throws IOException;

    /**
     * What {@link #write} writes, in memory: for an answer whose status must be known before its first byte goes out.
     *
     * @throws IOException when the recording of a {@code jfr} cannot be read
     */
    byte[] bytes(Profile profile, ProfileView view) throws IOException;
}
