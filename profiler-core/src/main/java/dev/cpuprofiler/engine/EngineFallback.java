package dev.cpuprofiler.engine;

import java.util.Objects;

/**
 * An engine that {@code auto} tried and passed over.
 *
 * @param engineId the engine that could not record
 * @param reason why, in words
 */
public record EngineFallback(String engineId, String reason) {

    public EngineFallback {
        Objects.requireNonNull(engineId, "engineId");
        Objects.requireNonNull(reason, "reason");
    }
}
