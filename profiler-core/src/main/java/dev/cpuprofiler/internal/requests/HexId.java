package dev.cpuprofiler.internal.requests;

/**
 * A trace's or a span's id as tracers write it, lowercase hex digits (W3C and B3: 32 or 16 for a trace, 16 for a
 * span), kept as numbers: up to 32 digits in two {@code long}s, and written back from them digit for digit, leading
 * zeros included, given how many there were.
 */
final class HexId {

    /** A trace id's most digits: 128 bits. */
    static final int MAX_DIGITS = 32;
    /** The digits one {@code long} holds: a span id's. */
    static final int LONG_DIGITS = 16;

    private HexId() {
    }

    /** Whether the text is 1 to {@code maxDigits} lowercase hex digits. */
    static boolean fits(String text, int maxDigits) {
        if (text == null || text.isEmpty() || text.length() > maxDigits) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) {
                return false;
            }
        }
        return true;
    }

    /** The number the digits before the last 16 write (0 if there are none). */
    static long high(String text) {
        return value(text, 0, Math.max(0, text.length() - LONG_DIGITS));
    }

    /** The number the last 16 digits write. */
    static long low(String text) {
        return value(text, Math.max(0, text.length() - LONG_DIGITS), text.length());
    }

    /** The id again, {@code digits} lowercase hex digits: the last 16 from {@code low}, any before from high. */
    static String text(long high, long low, int digits) {
        char[] text = new char[digits];
        for (int i = 0; i < digits; i++) {
            long word = i < LONG_DIGITS ? low : high;
            text[digits - 1 - i] = Character.forDigit((int) (word >>> 4 * (i % LONG_DIGITS)) & 0xf, 16);
        }
        return new String(text);
    }

    private static long value(String text, int from, int to) {
        long value = 0;
        for (int i = from; i < to; i++) {
            value = value << 4 | Character.digit(text.charAt(i), 16);
        }
        return value;
    }
}
