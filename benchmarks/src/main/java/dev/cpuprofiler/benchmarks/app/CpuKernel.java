package dev.cpuprofiler.benchmarks.app;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * One unit of fixed CPU-bound work (about 30-60 µs): sort 512 pseudo-random ints, CRC32 a 4 KB buffer, and build
 * and hash a short string. Deterministic and allocation-light, with a few real call levels so profilers have
 * stacks to walk. Not thread-safe: one instance per worker thread.
 */
final class CpuKernel {

    private final int[] numbers = new int[512];
    private final byte[] buffer = new byte[4096];
    private final StringBuilder text = new StringBuilder(64);
    private long seed;

    CpuKernel(long seed) {
        this.seed = seed;
    }

    long op() {
        return sortSome() ^ checksum() ^ format();
    }

    private long sortSome() {
        long x = seed;
        for (int i = 0; i < numbers.length; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            numbers[i] = (int) x;
        }
        seed = x;
        Arrays.sort(numbers);
        return numbers[numbers.length / 2];
    }

    private long checksum() {
        for (int i = 0; i < buffer.length; i += 8) {
            buffer[i] = (byte) (seed >>> (i & 31));
        }
        CRC32 crc = new CRC32();
        crc.update(buffer);
        return crc.getValue();
    }

    private long format() {
        text.setLength(0);
        text.append("order-").append(seed & 0xffff).append('/').append(numbers[7]).append(':').append(numbers[99]);
        return new String(text).toUpperCase().getBytes(StandardCharsets.UTF_8).length;
    }
}
