package dev.cpuprofiler;

import java.time.Duration;

/**
 * Values written the way {@code application.properties} takes them ({@code 30s}, {@code 10ms}, {@code 64MB}), for
 * the configuration metadata, README's table and messages a user reads next to their configuration.
 */
public final class SettingText {

    private static final long[] NANOS = {86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L,
            1_000_000L, 1_000L, 1L};
    private static final String[] NANO_UNITS = {"d", "h", "m", "s", "ms", "us", "ns"};
    private static final long[] BYTES = {1L << 40, 1L << 30, 1L << 20, 1L << 10, 1L};
    private static final String[] BYTE_UNITS = {"TB", "GB", "MB", "KB", "B"};

    private SettingText() {
    }

    /** {@code 4h}, {@code 30s}, {@code 10ms}; zero is {@code 0}, as Spring's configuration processor writes it. */
    public static String duration(Duration d) {
        if (d.isZero()) {
            return "0";
        }
        long nanos = d.toNanos();
        for (int i = 0; i < NANOS.length; i++) {
            if (nanos % NANOS[i] == 0) {
                return nanos / NANOS[i] + NANO_UNITS[i];
            }
        }
        throw new AssertionError(d);
    }

    /** {@code 64MB}, {@code 1MB}, {@code 512B}. */
    public static String bytes(long bytes) {
        if (bytes == 0) {
            return "0B";
        }
        for (int i = 0; i < BYTES.length; i++) {
            if (bytes % BYTES[i] == 0) {
                return bytes / BYTES[i] + BYTE_UNITS[i];
            }
        }
        throw new AssertionError(bytes);
    }

    /** {@code 80} for 80.0, {@code 12.5} for 12.5. */
    public static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
                : Double.toString(value);
    }
}
