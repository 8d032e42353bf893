package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import dev.cpuprofiler.internal.session.ProfileFileWriter;
import java.util.List;

/**
 * What {@code profiler.cpu.output-directory} gets per profile: its collapsed stacks and its flame graph, each written
 * by its format, with the look-back part (as the endpoint shows it by default); the recording is moved there too.
 */
public final class OutputFiles {

    private OutputFiles() {
    }

    public static List<ProfileFileWriter.File> standard() {
        return List.of(of(ProfileFormat.COLLAPSED), of(ProfileFormat.HTML));
    }

    private static ProfileFileWriter.File of(ProfileFormat format) {
        return new ProfileFileWriter.File(format.extension(),
                (profile, out) -> format.write(profile, ProfileView.FULL, out));
    }
}
