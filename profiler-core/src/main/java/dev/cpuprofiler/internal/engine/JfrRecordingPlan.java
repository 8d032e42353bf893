package dev.cpuprofiler.internal.engine;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a JFR engine records: the events with their settings, which of them are stack samples, and notes that hold
 * for every recording of this engine.
 *
 * @param engineId the engine's id
 * @param engineDetail what {@link RecordingResult#engineDetail()} reports
 * @param eventSettings event name to its settings ({@code period}, {@code throttle}, ...)
 * @param sampleEvents the events that are stack samples
 * @param notes notes every result of this engine carries
 */
record JfrRecordingPlan(String engineId, String engineDetail, Map<String, Map<String, String>> eventSettings,
        Set<String> sampleEvents, List<String> notes) {

    JfrRecordingPlan {
        eventSettings = Map.copyOf(eventSettings);
        sampleEvents = Set.copyOf(sampleEvents);
        notes = List.copyOf(notes);
    }
}
