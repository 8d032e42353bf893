package dev.cpuprofiler.format;

import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: a flame graph page's frame names as its script sees them. The page holds them in
 * {@code const cpool = ['all', '...', ...];}, sorted, each after the first stored as one character coding the length
 * it shares with the name before ({@code length + ' '}) then the rest; {@code unpack(cpool)} rebuilds them. The string
 * literals are read as JavaScript reads single-quoted literals (a literal the page could not parse fails here too).
 */
final class FlameGraphPage {

    private static final String START = "const cpool = [";

    private FlameGraphPage() {
    }

    /** The names as the page's {@code unpack(cpool)} leaves them, {@code 'all'} first. */
    static List<String> names(String html) {
        List<String> names = new ArrayList<>();
        for (String packed : packedNames(html)) {
            if (names.isEmpty()) {
                names.add(packed);
            } else {
                // cpool[i - 1].substring(0, cpool[i].charCodeAt(0) - 32) + cpool[i].substring(1); JavaScript's
                // substring clamps its end to the string.
                String previous = names.get(names.size() - 1);
                int shared = Math.max(0, Math.min(previous.length(), packed.charAt(0) - ' '));
                names.add(previous.substring(0, shared) + packed.substring(1));
            }
        }
        return names;
    }

    /** The array's strings as the script's literals hold them, before {@code unpack}. */
    static List<String> packedNames(String html) {
        int at = html.indexOf(START);
        if (at < 0) {
            throw new AssertionError("no frame-name array in the page");
        }
        at += START.length();
        List<String> strings = new ArrayList<>();
        StringBuilder s = new StringBuilder();
        while (true) {
            at = skipWhitespace(html, at);
            if (html.charAt(at) == ']' && strings.isEmpty()) {
                throw new AssertionError("an empty frame-name array");
            }
            if (html.charAt(at) != '\'') {
                throw new AssertionError("not a string literal at " + at + ": " + excerpt(html, at));
            }
            s.setLength(0);
            at = literal(html, at + 1, s);
            strings.add(s.toString());
            at = skipWhitespace(html, at);
            char c = html.charAt(at++);
            if (c == ']') {
                return strings;
            }
            if (c != ',') {
                throw new AssertionError("neither ',' nor ']' after a string literal at " + (at - 1) + ": "
                        + excerpt(html, at - 1));
            }
        }
    }

    /** Reads a single-quoted literal's characters from just after its opening quote; returns the index after it. */
    private static int literal(String html, int at, StringBuilder out) {
        while (true) {
            char c = html.charAt(at++);
            switch (c) {
                case '\'' -> {
                    return at;
                }
                case '\n', '\r' -> throw new AssertionError("a line break inside a string literal at " + (at - 1)
                        + ": " + excerpt(html, at - 1));
                case '\\' -> {
                    char e = html.charAt(at++);
                    switch (e) {
                        case 'n' -> out.append('\n');
                        case 'r' -> out.append('\r');
                        case 't' -> out.append('\t');
                        case 'b' -> out.append('\b');
                        case 'f' -> out.append('\f');
                        case 'v' -> out.append('\u000b');
                        case 'x' -> {
                            out.append((char) Integer.parseInt(html.substring(at, at + 2), 16));
                            at += 2;
                        }
                        case 'u' -> {
                            out.append((char) Integer.parseInt(html.substring(at, at + 4), 16));
                            at += 4;
                        }
                        case '\n', '\r', '\u2028', '\u2029' -> {  // a line continuation: nothing
                            if (e == '\r' && html.charAt(at) == '\n') {
                                at++;
                            }
                        }
                        default -> {
                            if (e >= '0' && e <= '9') {
                                throw new AssertionError("an octal or \\0 escape at " + (at - 2) + ": "
                                        + excerpt(html, at - 2));
                            }
                            out.append(e);  // \\ \' \" and identity escapes
                        }
                    }
                }
                default -> out.append(c);
            }
        }
    }

    private static int skipWhitespace(String html, int at) {
        while (Character.isWhitespace(html.charAt(at))) {
            at++;
        }
        return at;
    }

    private static String excerpt(String html, int at) {
        return html.substring(Math.max(0, at - 40), Math.min(html.length(), at + 40));
    }
}
