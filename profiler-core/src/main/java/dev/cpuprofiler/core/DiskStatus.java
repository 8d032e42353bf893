package dev.cpuprofiler.core;

import java.util.List;

/**
 * Free space where the profiler writes, against its floor ({@code profiler.cpu.min-free-disk-space}).
 *
 * @param places each place it writes, with its filesystem's free space
 * @param problem why something cannot be recorded or written now (the first place below its floor), or null
 */
public record DiskStatus(List<Place> places, String problem) {

    public DiskStatus {
        places = List.copyOf(places);
    }

    /**
     * One place.
     *
     * @param role {@code jfr-repository}, {@code work-directory} or {@code output-directory}
     * @param path the directory
     * @param freeBytes what this process may still write on its filesystem
     * @param floorBytes what the profiler leaves free there
     * @param writable whether this process may write there at all
     */
    public record Place(String role, String path, long freeBytes, long floorBytes, boolean writable) {

        public boolean ok() {
            return writable && freeBytes >= floorBytes;
        }
    }
}
