package dev.cpuprofiler.autoconfigure.export;

import java.util.Locale;

/** The {@code result} tag of {@code profiler.cpu.export}: what became of one push attempt or one profile. */
public enum ExportResult {
    /** The target accepted the profile (2xx). */
    SUCCESS,
    /** An attempt failed in a way worth trying again (429, 5xx, an I/O error or time-out); another follows. */
    RETRY,
    /**
     * The profile was not delivered: refused (4xx other than 429), redirected (3xx, never followed), retries used up,
     * or nothing to send.
     */
    FAILURE,
    /** The queue was full, or the exporter closing, and the profile was never tried. */
    DROPPED;

    /** The tag value: {@code success}, {@code retry}, {@code failure}, {@code dropped}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
