package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.format.RecordingFile;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.InputStreamResource;
import org.springframework.core.io.Resource;
import org.springframework.util.MimeType;

/**
 * A profile served as a file ({@code format=pprof}, {@code format=jfr}): a {@link Resource}, which Spring MVC,
 * WebFlux and Jersey all stream, in a content type marked with its file name, which {@link EndpointHeaders} turns
 * into {@code Content-Disposition} (a content type is the one header a {@code WebEndpointResponse} carries).
 */
final class ProfileDownload {

    /** The {@code Content-Type} parameter that carries the download's file name to the web layer; never sent. */
    static final String FILE_PARAMETER = "cpuprofiler-file";

    private ProfileDownload() {
    }

    static WebEndpointResponse<Resource> of(byte[] bytes, String filename, String mediaType) {
        return response(new ByteArrayResource(bytes, "profile download " + filename) {
            @Override
            public String getFilename() {
                return filename;
            }
        }, filename, mediaType);
    }

    /**
     * The recording, opened now, since the store may delete it once its profile is dropped; it can be read once. Only a
     * regular file is opened, never through a link ({@link RecordingFile}).
     */
    static WebEndpointResponse<Resource> open(Path file, String filename, String mediaType) throws IOException {
        SeekableByteChannel recording = RecordingFile.open(file);
        long length = recording.size();
        return response(new InputStreamResource(Channels.newInputStream(recording), "profile download " + filename) {
            @Override
            public String getFilename() {
                return filename;
            }

            @Override
            public long contentLength() {
                return length;
            }
        }, filename, mediaType);
    }

    private static WebEndpointResponse<Resource> response(Resource body, String filename, String mediaType) {
        MimeType type = MimeType.valueOf(mediaType);
        return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_OK, new MimeType(type,
                Map.of(FILE_PARAMETER, "\"" + filename.replace("\"", "") + "\"")));
    }
}
