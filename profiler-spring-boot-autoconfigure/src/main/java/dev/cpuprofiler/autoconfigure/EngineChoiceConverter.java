package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.EngineChoice;
import org.springframework.core.convert.converter.Converter;

/**
 * Binds {@code profiler.cpu.engine} by the names docs/engines.md and the metadata use ({@code async-profiler}); an
 * unknown name fails start-up with the property and those names, not the enum's constants ({@code ASYNC_PROFILER}).
 */
final class EngineChoiceConverter implements Converter<String, EngineChoice> {

    @Override
    public EngineChoice convert(String source) {
        return EngineChoice.fromId(source);
    }
}
