package dev.cpuprofiler.internal.engine;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a JFR engine's recording to the events that engine enabled. JFR writes one stream per JVM: a dump of our
 * recording holds every event that any recording in the JVM had on at the time, so with the application's own
 * {@code -XX:StartFlightRecording} (whose {@code default.jfc} records the system properties, the JVM's arguments,
 * the environment variables and the processes' command lines) our download would hand all of that out. On JDK 19+
 * such a file is rewritten with only our events ({@code RecordingFile.write}); JDK 17 and 18 cannot filter one,
 * so there the recording is not kept and the profile says why (its stacks are unaffected).
 */
final class JfrOwnEvents {

    private static final Logger log = LoggerFactory.getLogger(JfrOwnEvents.class);
    private static final int NAMES_SHOWN = 5;
    private static final MethodHandle WRITE = findWrite();

    /**
     * @param kept the file, still there (filtered when needed), or empty when it was deleted
     * @param note what the profile's reader should know, or empty when the file held only our events
     */
    record Outcome(Optional<Path> kept, Optional<String> note) {
    }

    private JfrOwnEvents() {
    }

    /**
     * @param file the dumped recording
     * @param own the event types the engine enabled
     * @param present the event types the file holds
     */
    static Outcome keepOnly(Path file, Set<String> own, Set<String> present) {
        Set<String> foreign = new TreeSet<>(present);
        foreign.removeAll(own);
        if (foreign.isEmpty()) {
            return new Outcome(Optional.of(file), Optional.empty());
        }
        String what = "another JFR recording in this JVM wrote " + foreign.size() + " other event types into it ("
                + names(foreign) + "), which can carry the application's configuration";
        if (WRITE == null) {
            RecordingFiles.deleteQuietly(file);
            return new Outcome(Optional.empty(), Optional.of("The JFR recording (format=jfr) is not kept: " + what
                    + ", and this JDK cannot filter a recording (JDK 19 and later can)"));
        }
        Path filtered = file.resolveSibling(file.getFileName() + ".own");
        try {
            Predicate<RecordedEvent> ours = e -> own.contains(e.getEventType().getName());
            try (RecordingFile in = new RecordingFile(file)) {
                WRITE.invoke(in, filtered, ours);
            }
            Files.move(filtered, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return new Outcome(Optional.of(file), Optional.of("The JFR recording (format=jfr) holds only this "
                    + "profile's own events: " + what + "; they were filtered out"));
        } catch (Throwable e) {
            if (e instanceof VirtualMachineError error) {
                throw error;
            }
            log.warn("Could not filter {}", file, e);
            RecordingFiles.deleteQuietly(filtered);
            RecordingFiles.deleteQuietly(file);
            return new Outcome(Optional.empty(), Optional.of("The JFR recording (format=jfr) is not kept: " + what
                    + ", and filtering them out failed (" + EngineUnavailableException.unexpected(e) + ")"));
        }
    }

    private static String names(Set<String> types) {
        StringBuilder s = new StringBuilder();
        int shown = 0;
        for (String type : types) {
            if (shown == NAMES_SHOWN) {
                return s.append(" and ").append(types.size() - shown).append(" more").toString();
            }
            s.append(shown++ == 0 ? "" : ", ").append(type);
        }
        return s.toString();
    }

    /** {@code RecordingFile.write(Path, Predicate<RecordedEvent>)}, JDK 19+; null on older JDKs. */
    private static MethodHandle findWrite() {
        try {
            return MethodHandles.publicLookup().findVirtual(RecordingFile.class, "write",
                    MethodType.methodType(void.class, Path.class, Predicate.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
