package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;

import java.util.regex.Pattern;

/**
 * Folds numbered thread names so that a pool's threads share one node when the tree is grouped by thread:
 * {@code http-nio-8080-exec-12} becomes {@code http-nio-8080-exec-*}, {@code pool-3-thread-7} becomes
 * {@code pool-*-thread-*}. Only trailing numbers fold (a port in the middle, as in {@code 8080}, says which
 * connector it is and stays), plus the pool number of the JDK's own factories ({@code pool-N-thread-},
 * {@code ForkJoinPool-N-worker-}).
 */
public final class ThreadNames {

    /** The frame name of samples whose thread is not known. */
    public static final String UNKNOWN_THREAD = "[unknown thread]";

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

    /** The name of the first-level node that groups a thread's samples: the folded name in brackets. */
    public static String groupFrame(String threadName) {
        if (threadName == null) {
            return UNKNOWN_THREAD;
        }
        return "[" + FrameNames.sanitize(fold(threadName)) + "]";
    }

    /**
     * Whether a node is a thread group: a first-level, bracketed, kind-less node that no sample ends in (a frame
     * such as {@code [unknown]} that samples end in is code, not a group; nor are the {@link StackTree#TRUNCATED}
     * and {@link StackTree#NO_STACK} markers).
     */
    public static boolean isGroupNode(StackTreeSnapshot tree, int node) {
        String name = tree.frame(node);
        return tree.depth(node) == 1 && tree.kind(node) == FrameKind.UNKNOWN && tree.self(node) == 0
                && name.startsWith("[") && name.endsWith("]") && !StackTree.TRUNCATED.equals(name)
                && !StackTree.NO_STACK.equals(name);
    }

    /** The thread name a group node stands for: its frame without the brackets (folded, as the tree keeps it). */
    public static String groupThread(StackTreeSnapshot tree, int node) {
        String name = tree.frame(node);
        return name.substring(1, name.length() - 1);
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
