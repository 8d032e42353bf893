package dev.cpuprofiler.internal.cpu;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A small kernel counter file read over and over without allocating: the channel stays open and each read is a
 * positional {@code pread} at offset 0 into one reused direct buffer (cgroupfs regenerates the content on every read
 * from offset 0). When a read fails the channel is dropped and reopened on the next call, so a transient error, an
 * interrupt (which closes the channel) or a recreated cgroup heals by itself.
 */
final class CounterFile implements AutoCloseable {

    /** cgroup counter files are well under this; anything past it is ignored. */
    private static final int CAPACITY = 4096;

    private final Path path;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(CAPACITY);
    private FileChannel channel;

    CounterFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /** The whole file, from position 0 to its limit; valid until the next call. */
    ByteBuffer read() throws IOException {
        FileChannel ch = channel;
        if (ch == null) {
            ch = open();
        }
        buffer.clear();
        try {
            long position = 0;
            while (buffer.hasRemaining()) {
                int n = ch.read(buffer, position);
                if (n <= 0) {
                    break;
                }
                position += n;
            }
        } catch (IOException e) {
            close();
            throw new IOException("cannot read " + path + ": " + e, e);
        }
        buffer.flip();
        return buffer;
    }

    private FileChannel open() throws IOException {
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ);
            return channel;
        } catch (NoSuchFileException e) {
            throw new IOException("CPU counter file does not exist: " + path, e);
        } catch (IOException e) {
            throw new IOException("cannot open CPU counter file " + path + ": " + e, e);
        }
    }

    @Override
    public void close() {
        FileChannel ch = channel;
        channel = null;
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // Nothing to recover: the next read reopens.
            }
        }
    }

    /**
     * Parses the unsigned decimal number at {@code start} of the buffer, which must end at a line end, a space or the
     * end of the content. Allocation-free unless the content is malformed.
     */
    static long parseNumber(ByteBuffer content, int start, Path path) throws IOException {
        int limit = content.limit();
        long value = 0;
        int i = start;
        for (; i < limit; i++) {
            byte b = content.get(i);
            if (b < '0' || b > '9') {
                break;
            }
            if (i - start >= 18) {
                throw malformed(content, path, "number too long");
            }
            value = value * 10 + (b - '0');
        }
        if (i == start || (i < limit && !isSeparator(content.get(i)))) {
            throw malformed(content, path, "expected a number at offset " + start);
        }
        return value;
    }

    static boolean isSeparator(byte b) {
        return b == '\n' || b == ' ' || b == '\t' || b == '\r';
    }

    static IOException malformed(ByteBuffer content, Path path, String problem) {
        int length = Math.min(content.limit(), 200);
        byte[] bytes = new byte[length];
        content.get(0, bytes);
        String text = new String(bytes, StandardCharsets.UTF_8).replace("\n", "\\n");
        return new IOException("unexpected content in " + path + " (" + problem + "): '" + text + "'");
    }
}
