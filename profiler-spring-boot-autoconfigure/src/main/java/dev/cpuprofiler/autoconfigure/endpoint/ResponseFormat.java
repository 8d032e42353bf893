package dev.cpuprofiler.autoconfigure.endpoint;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Producible;
import org.springframework.boot.actuate.endpoint.ProducibleOperationArgumentResolver;
import org.springframework.util.MimeType;

/**
 * What the client's {@code Accept} header asks for, as Actuator resolves an operation parameter of this type
 * ({@link ProducibleOperationArgumentResolver}, alike with Spring MVC, WebFlux and Jersey): for each media range, the
 * first constant whose type it matches ({@code *}{@code /*} or no header: {@link #ANY}), and of those the one declared
 * last. So a browser ({@code text/html,…,*}{@code /*}) or {@code text/*} gets {@link #HTML}: the status page, or a
 * refusal as a small page; a client naming {@code application/json} gets {@link #JSON} even if it lists
 * {@code text/html}; {@code text/plain} without JSON gets {@link #TEXT}. A header none matches (only the actuator's
 * v2 type, say) resolves to {@code null}: JSON in the type Spring negotiates. No {@code q} value is weighed.
 */
public enum ResponseFormat implements Producible<ResponseFormat> {

    /** {@code curl}, no header, or the actuator's own type: JSON, the status in the type Spring negotiates. */
    ANY("application/vnd.spring-boot.actuator.v3+json", true),

    /** The status page, or a small page for a session or a refusal. */
    HTML("text/html;charset=UTF-8", false),

    /** A few lines a person reads in a terminal. */
    TEXT("text/plain;charset=UTF-8", false),

    /** Plain {@code application/json}, named by the client. */
    JSON("application/json", false);

    private final MimeType mimeType;
    private final boolean isDefault;

    ResponseFormat(String mimeType, boolean isDefault) {
        this.mimeType = MimeType.valueOf(mimeType);
        this.isDefault = isDefault;
    }

    @Override
    public boolean isDefault() {
        return isDefault;
    }

    @Override
    public MimeType getProducedMimeType() {
        return mimeType;
    }

    /** The format for raw {@code Accept} values, for code that runs before any operation (a malformed body). */
    static @Nullable ResponseFormat fromAccept(@Nullable List<String> accept) {
        return new ProducibleOperationArgumentResolver(() -> accept).resolve(ResponseFormat.class);
    }
}
