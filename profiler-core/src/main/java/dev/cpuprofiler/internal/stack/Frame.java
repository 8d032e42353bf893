package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.FrameKind;

import java.util.Objects;

/**
 * One frame of a sampled call stack.
 *
 * @param name {@code package.Class.method} for Java code, the symbol for native code
 * @param kind what kind of code it is
 */
public record Frame(String name, FrameKind kind) {

    public Frame {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
    }

    public static Frame java(String name) {
        return new Frame(name, FrameKind.JAVA);
    }
}
