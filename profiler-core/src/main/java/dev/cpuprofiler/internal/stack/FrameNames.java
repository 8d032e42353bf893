package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.FrameKind;

import java.util.regex.Pattern;

/**
 * Normalizes frame names so that the same code merges into one node whatever engine, JVM run or class-loading
 * accident produced the name. Pure functions; the tree caches their results per distinct raw name, so the regular
 * expressions run once per name, not once per sample.
 */
public final class FrameNames {

    /** async-profiler's type suffixes, in {@link FrameKind} terms ({@code _[0]} interpreted, {@code _[1]} C1). */
    private static final String[] SUFFIXES = {"_[j]", "_[i]", "_[k]", "_[0]", "_[1]"};
    private static final FrameKind[] SUFFIX_KINDS = {
            FrameKind.JAVA, FrameKind.INLINED, FrameKind.KERNEL, FrameKind.JAVA, FrameKind.JAVA};

    /**
     * A hidden class's address, as {@code Foo/0x0000000801234} (class names), {@code Foo.0x00000008012} (JFR on JDK
     * 21+) or {@code Foo$$Lambda$14+0x00007f63fc150a08.442125849} (JFR on JDK 17: address and a hash).
     */
    private static final Pattern HIDDEN_CLASS_ADDRESS =
            Pattern.compile("(?:[./]0x\\p{XDigit}+|\\+0x\\p{XDigit}+(?:\\.\\d+)?)(?=\\.|$)");
    /** {@code $$Lambda$123} (JDK 17) and JDK 8's {@code $$Lambda$1/1234567}: the numbers change from run to run. */
    private static final Pattern LAMBDA_NUMBER = Pattern.compile("\\$\\$Lambda(?:\\$\\d+)?(?:/\\d+)?");
    /** Reflection's generated accessors: one class per call site, numbered in creation order. */
    private static final Pattern GENERATED_ACCESSOR = Pattern.compile("(Generated\\w*?Accessor)\\d+");
    /** {@code $Proxy42} and the dynamic module {@code jdk.proxy2} it lives in. */
    private static final Pattern PROXY = Pattern.compile("\\$Proxy\\d+");
    private static final Pattern PROXY_MODULE = Pattern.compile("\\bjdk\\.proxy\\d+\\.");
    /** CGLIB ({@code $$SpringCGLIB$$0}, {@code $$EnhancerBySpringCGLIB$$1a2b3c}) and ByteBuddy-style subclasses. */
    private static final Pattern CGLIB = Pattern.compile("(\\$\\$\\w*?CGLIB)\\$\\$\\w+");
    private static final Pattern BYTE_BUDDY = Pattern.compile("\\$(HibernateProxy|ByteBuddy|MockitoMock)\\$\\w+");

    private FrameNames() {
    }

    /**
     * The name under which a frame merges, and its kind (an async-profiler suffix, when present, says the kind).
     * Idempotent: normalizing a normalized frame changes nothing.
     */
    public static Frame normalize(String rawName, FrameKind kind) {
        if (kind.isGroup()) {
            return new Frame(sanitize(rawName), kind);  // a group's name, not code: nothing to merge
        }
        String name = rawName;
        for (int i = 0; i < SUFFIXES.length; i++) {
            if (name.endsWith(SUFFIXES[i])) {
                name = name.substring(0, name.length() - 4);
                kind = SUFFIX_KINDS[i];
                break;
            }
        }
        name = sanitize(name);
        if (name.indexOf('$') >= 0 || name.contains("0x") || name.contains("Generated") || name.contains("jdk.proxy")) {
            name = HIDDEN_CLASS_ADDRESS.matcher(name).replaceAll("");
            name = LAMBDA_NUMBER.matcher(name).replaceAll("\\$\\$Lambda");
            name = GENERATED_ACCESSOR.matcher(name).replaceAll("$1");
            name = PROXY.matcher(name).replaceAll("\\$Proxy");
            name = PROXY_MODULE.matcher(name).replaceAll("jdk.proxy.");
            name = CGLIB.matcher(name).replaceAll("$1");
            name = BYTE_BUDDY.matcher(name).replaceAll("\\$$1");
        }
        if (isJava(kind) && name.indexOf('/') > 0) {
            // async-profiler writes java/lang/Thread.run; JFR writes java.lang.Thread.run: merge them.
            name = name.replace('/', '.');
        }
        return new Frame(name, kind);
    }

    /**
     * Replaces what no line-based output can carry: control characters (a thread may be named with a newline) become
     * spaces and {@code ;} (the collapsed-stack separator) becomes {@code ,}.
     */
    public static String sanitize(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < ' ' || c == 0x7f || c == ';') {
                StringBuilder sb = new StringBuilder(name.length());
                for (int j = 0; j < name.length(); j++) {
                    char d = name.charAt(j);
                    sb.append(d < ' ' || d == 0x7f ? ' ' : d == ';' ? ',' : d);
                }
                return sb.toString();
            }
        }
        return name;
    }

    static boolean isJava(FrameKind kind) {
        return kind == FrameKind.JAVA || kind == FrameKind.INLINED;
    }

    /** The suffix the collapsed format uses to keep a frame's kind, or "" when the name alone says it. */
    public static String collapsedSuffix(String name, FrameKind kind) {
        return switch (kind) {
            case INLINED -> "_[i]";
            case KERNEL -> "_[k]";
            case JAVA -> guessKind(name) == FrameKind.JAVA ? "" : "_[j]";
            default -> "";
        };
    }

    /** Guesses a frame's kind from its name alone, as collapsed text without a suffix leaves it. */
    static FrameKind guessKind(String name) {
        int n = name.length();
        if (n == 0) {
            return FrameKind.NATIVE;
        }
        if (name.charAt(0) == '[' && name.charAt(n - 1) == ']') {
            return FrameKind.UNKNOWN;
        }
        if (!Character.isJavaIdentifierStart(name.charAt(0))) {
            return FrameKind.NATIVE;
        }
        int lastSeparator = -1;
        for (int i = 1; i < n; i++) {
            char c = name.charAt(i);
            if (c == '.' || c == '/') {
                lastSeparator = i;
            } else if (!Character.isJavaIdentifierPart(c) && c != '<' && c != '>') {
                return FrameKind.NATIVE;
            }
        }
        if (lastSeparator < 0 || lastSeparator == n - 1 || name.endsWith(".so") || name.contains(".so.")) {
            return FrameKind.NATIVE;
        }
        char methodStart = name.charAt(lastSeparator + 1);
        return Character.isJavaIdentifierStart(methodStart) || methodStart == '<' ? FrameKind.JAVA : FrameKind.NATIVE;
    }
}
