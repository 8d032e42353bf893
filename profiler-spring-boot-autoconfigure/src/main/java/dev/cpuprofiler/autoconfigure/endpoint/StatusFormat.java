package dev.cpuprofiler.autoconfigure.endpoint;

import org.springframework.boot.actuate.endpoint.Producible;
import org.springframework.boot.actuate.endpoint.ProducibleOperationArgumentResolver;
import org.springframework.util.MimeType;

/**
 * Whether {@code GET /actuator/cpuprofiler} answers with the status page or the JSON, from the {@code Accept} header.
 * Actuator resolves an operation parameter of this type from the header ({@link ProducibleOperationArgumentResolver},
 * with Spring MVC, WebFlux and Jersey alike, on the application's port or a management port): for each media range in
 * the header it takes the first constant whose type the range matches, {@code *}{@code /*} and no header at all
 * meaning the default, and of those the one declared last wins. Hence the order:
 * <ul>
 * <li>a browser ({@code text/html,…,*}{@code /*;q=0.8}) names {@code text/html}: {@link #HTML} beats the default
 * its {@code *}{@code /*} stands for;</li>
 * <li>a client that names {@code application/json} gets {@link #JSON}, even when it lists {@code text/html} too;</li>
 * <li>{@code curl} ({@code *}{@code /*}), no header, or the actuator's own JSON types: {@link #ANY}, the JSON, in the
 * type Spring negotiates as before.</li>
 * </ul>
 * The resolver weighs no {@code q} values: {@code text/html;q=0} still counts as naming HTML. Clients that want JSON
 * whatever else they list send {@code Accept: application/json}.
 */
public enum StatusFormat implements Producible<StatusFormat> {

    /**
     * The default: JSON in the type content negotiation picks (the actuator's v3 type for {@code *}{@code /*}). Its
     * type is the actuator's, so that a client asking for exactly that type gets what it always got.
     */
    ANY("application/vnd.spring-boot.actuator.v3+json", true),

    /** The status page, for a browser. */
    HTML("text/html;charset=UTF-8", false),

    /** Plain {@code application/json}, named by the client. */
    JSON("application/json", false);

    private final MimeType mimeType;
    private final boolean isDefault;

    StatusFormat(String mimeType, boolean isDefault) {
        this.mimeType = MimeType.valueOf(mimeType);
        this.isDefault = isDefault;
    }

    @Override
    public MimeType getProducedMimeType() {
        return mimeType;
    }

    @Override
    public boolean isDefault() {
        return isDefault;
    }
}
