package dev.cpuprofiler;

/**
 * What a node of a stack tree stands for: code of some kind, where the engine tells, or a group of samples. Groups
 * sit above the code: a tree grouped by thread or by endpoint has one group node per thread or endpoint at its first
 * level, named by the group itself ({@code http-nio-8080-exec-*}, {@code GET /owners/{id}}); the text formats print it
 * in brackets, pprof and OTLP carry it as a label.
 */
public enum FrameKind {
    /** Compiled or interpreted Java code. */
    JAVA,
    /** A Java method inlined into its caller by the JIT. */
    INLINED,
    /** Native code (JNI, the JVM, libc). */
    NATIVE,
    /** Kernel code. */
    KERNEL,
    /** The engine did not say; also the root and the {@code [truncated]} and {@code [no stack]} markers. */
    UNKNOWN,
    /** A group: the thread that ran the samples below, its numbered name folded ({@code pool-*-thread-*}). */
    THREAD,
    /** A group: the request the samples' thread served, method and URI template ({@code GET /owners/{id}}). */
    ENDPOINT,
    /** Below an endpoint, a traced request's trace: its id, as the tracer writes it. */
    TRACE,
    /** Below a trace, the request's span: its id, as the tracer writes it. */
    SPAN;

    /** Whether it is a group of samples rather than code. */
    public boolean isGroup() {
        return ordinal() >= THREAD.ordinal();
    }
}
