package dev.cpuprofiler.autoconfigure.endpoint;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.AbstractResource;

/**
 * A profile served as a file ({@code format=pprof}, {@code format=jfr}): its bytes and the name a browser or
 * {@code curl -OJ} saves it under, which {@link EndpointHeaders} also puts in {@code Content-Disposition}. A
 * {@link org.springframework.core.io.Resource}, so that Spring MVC, WebFlux and Jersey all stream it.
 */
final class ProfileDownload extends AbstractResource {

    private final String filename;
    private final long length;
    private final byte @Nullable [] bytes;
    private final AtomicReference<@Nullable InputStream> opened;

    private ProfileDownload(String filename, long length, byte @Nullable [] bytes, @Nullable InputStream opened) {
        this.filename = filename;
        this.length = length;
        this.bytes = bytes;
        this.opened = new AtomicReference<>(opened);
    }

    static ProfileDownload of(byte[] bytes, String filename) {
        return new ProfileDownload(filename, bytes.length, bytes, null);
    }

    /**
     * The file, opened now: the store may delete it once its profile is dropped, and an open file stays readable
     * after that on the systems the profiler runs on.
     */
    static ProfileDownload open(Path file, String filename) throws IOException {
        InputStream in = Files.newInputStream(file);
        try {
            return new ProfileDownload(filename, Files.size(file), null, in);
        } catch (RuntimeException e) {
            in.close();
            throw e;
        }
    }

    @Override
    public String getFilename() {
        return filename;
    }


    @Override
    public long contentLength() {
        return length;
    }

    @Override
    public boolean isOpen() {
        return bytes == null;
    }

    @Override
    public InputStream getInputStream() throws IOException {
        if (bytes != null) {
            return new ByteArrayInputStream(bytes);
        }
        InputStream in = opened.getAndSet(null);
        if (in == null) {
            throw new IllegalStateException(filename + " can be read only once");
        }
        return in;
    }

    @Override
    public String getDescription() {
        return "profile download " + filename;
    }
}
