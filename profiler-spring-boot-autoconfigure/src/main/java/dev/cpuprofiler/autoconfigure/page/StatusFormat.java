package dev.cpuprofiler.autoconfigure.page;

import org.springframework.boot.actuate.endpoint.Producible;
import org.springframework.util.MimeType;

/**
 * Who gets the status page and who the JSON status: the status's formats, chosen from the {@code Accept} header as
 * Actuator resolves a {@link Producible} (alike with Spring MVC, WebFlux and Jersey): of the constants the header's
 * media ranges match, the one declared last ({@code *}{@code /*} or no header: {@link #V3}); no {@code q} value is
 * weighed. So a browser ({@code text/html,…,*}{@code /*}) or {@code text/*} gets the page, a client naming
 * {@code application/json} the JSON even if it also names {@code text/html}, and each JSON client the type it names,
 * as from any actuator endpoint. {@code ?format=html} or {@code json} overrides the header.
 */
public enum StatusFormat implements Producible<StatusFormat> {

    V3("application/vnd.spring-boot.actuator.v3+json"),
    V2("application/vnd.spring-boot.actuator.v2+json"),
    /** The status page ({@link StatusPage}). */
    HTML("text/html;charset=UTF-8"),
    JSON("application/json");

    private final MimeType type;

    StatusFormat(String type) {
        this.type = MimeType.valueOf(type);
    }

    @Override
    public MimeType getProducedMimeType() {
        return type;
    }

    @Override
    public boolean isDefault() {
        return this == V3;
    }
}
