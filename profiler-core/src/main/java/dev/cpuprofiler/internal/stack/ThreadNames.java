package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.FrameKind;
import java.util.regex.Pattern;

/**
 * Folds numbered thread names so that a pool's threads share one node when the tree is grouped by thread:
 * {@code http-nio-8080-exec-12} becomes {@code http-nio-8080-exec-*}, {@code pool-3-thread-7} becomes
 * {@code pool-*-thread-*}. Only trailing numbers fold (a port in the middle, as in {@code 8080}, says which
 * connector it is and stays), plus the pool number of the JDK's own factories ({@code pool-N-thread-},
 * {@code ForkJoinPool-N-worker-}).
 */
public final class ThreadNames {

    /** The group of samples whose thread is not known. */
    public static final String UNKNOWN_THREAD = "unknown thread";

    private static final Pattern POOL_NUMBER = Pattern.compile("-\\d+-(thread|worker)-");

    private ThreadNames() {
    }

    /** The folded thread name. */
    public static String fold(String threadName) {
        String name = POOL_NUMBER.matcher(threadName).replaceAll("-*-$1-");
        int end = name.length();
        int start = digitsBefore(name, end);
        if (start == end) {
            return name;
        }
        // The last number may be glued to letters (CompilerThread0); earlier ones only count after a separator,
        // so nioEventLoopGroup-2-1 folds to nioEventLoopGroup-*-* while md5-1 keeps its md5.
        StringBuilder folded = new StringBuilder("*");
        while (start >= 2 && isSeparator(name.charAt(start - 1))) {
            int previous = digitsBefore(name, start - 1);
            if (previous == start - 1 || previous > 0 && !isSeparator(name.charAt(previous - 1))) {
                break;
            }
            folded.insert(0, "*" + name.charAt(start - 1));
            start = previous;
        }
        return name.substring(0, start) + folded;
    }

    /** The name of the {@link FrameKind#THREAD} group that holds a thread's samples: folded. */
    public static String group(String threadName) {
        return threadName == null ? UNKNOWN_THREAD : FrameNames.sanitize(fold(threadName));
    }

    /** The thread group node of a thread's samples. */
    public static Frame groupFrame(String threadName) {
        return new Frame(group(threadName), FrameKind.THREAD);
    }

    private static int digitsBefore(String s, int end) {
        int i = end;
        while (i > 0 && Character.isDigit(s.charAt(i - 1))) {
            i--;
        }
        return i;
    }

    private static boolean isSeparator(char c) {
        return c == '-' || c == '_' || c == '.' || c == '#' || c == ':' || c == ' ';
    }
}
