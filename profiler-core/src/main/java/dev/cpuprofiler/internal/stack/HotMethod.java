package dev.cpuprofiler.internal.stack;

import java.util.Objects;

/**
 * One method's share of a profile.
 *
 * @param method the frame name as the tree shows it (fully qualified for Java frames)
 * @param selfPercent share of all samples that end in this method (0..100)
 * @param totalPercent share of all samples that pass through it, counted once per sample however often it recurses
 * @param samples weight of the samples that end in it
 */
public record HotMethod(String method, double selfPercent, double totalPercent, long samples) {

    public HotMethod {
        Objects.requireNonNull(method, "method");
    }
}
