package dev.cpuprofiler.autoconfigure.endpoint;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Producible;
import org.springframework.boot.actuate.endpoint.ProducibleOperationArgumentResolver;
import org.springframework.util.MimeType;

/**
 * How the endpoint answers sessions and refusals, chosen from the request's {@code Accept} header. Actuator resolves
 * an operation parameter of this type from the header ({@link ProducibleOperationArgumentResolver}, with Spring MVC,
 * WebFlux and Jersey alike): JSON for a JSON client, for {@code *}{@code /*} and for no header; plain text for a
 * client that accepts {@code text/plain} but not JSON; a small HTML page for one that accepts only {@code text/html}.
 * When several match, Actuator takes the highest ordinal, so JSON, declared last, wins over text. A header none of
 * them matches (e.g. only {@code application/vnd.spring-boot.actuator.v3+json}) resolves to {@code null}: the answer
 * is JSON, in whichever JSON type Spring negotiates.
 */
public enum ResponseFormat implements Producible<ResponseFormat> {

    /** {@code text/html}: a small page, for a browser that asks for nothing else. */
    HTML("text/html;charset=UTF-8", false),

    /** {@code text/plain}: a few lines a person reads in a terminal. */
    TEXT("text/plain;charset=UTF-8", false),

    /** {@code application/json}: the descriptors, as every other answer of the endpoint. */
    JSON("application/json", true);

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

    /**
     * The format for raw {@code Accept} header values, as Actuator resolves it for an operation; for code that runs
     * before any operation (a request body that is not JSON).
     */
    static @Nullable ResponseFormat fromAccept(@Nullable List<String> accept) {
        return new ProducibleOperationArgumentResolver(() -> accept).resolve(ResponseFormat.class);
    }
}
