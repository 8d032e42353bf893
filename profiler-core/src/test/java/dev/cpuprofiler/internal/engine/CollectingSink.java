package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/** Keeps every sample, so tests can ask what a user of the profile would see. */
final class CollectingSink implements StackSink {

    record Sample(List<Frame> frames, String thread, long weight) {

        boolean passesThrough(String methodSuffix) {
            return frames.stream().anyMatch(f -> f.name().endsWith(methodSuffix));
        }
    }

    private final List<Sample> samples = new ArrayList<>();

    @Override
    public synchronized void accept(List<Frame> framesRootFirst, String threadName, long weight) {
        samples.add(new Sample(List.copyOf(framesRootFirst), threadName, weight));
    }

    synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    synchronized long totalWeight() {
        return samples.stream().mapToLong(Sample::weight).sum();
    }

    synchronized long weight(Predicate<Sample> which) {
        return samples.stream().filter(which).mapToLong(Sample::weight).sum();
    }

    synchronized Set<String> threadNames() {
        Set<String> names = new TreeSet<>();
        samples.forEach(s -> names.add(String.valueOf(s.thread())));
        return names;
    }

    /** Share in percent of {@code thread}'s samples whose stack passes through a method ending in the suffix. */
    synchronized double inclusivePercent(String thread, String methodSuffix) {
        long all = weight(s -> thread.equals(s.thread()));
        long through = weight(s -> thread.equals(s.thread()) && s.passesThrough(methodSuffix));
        return all == 0 ? 0 : 100.0 * through / all;
    }
}
