package dev.cpuprofiler;

/** What kind of code a frame is, where the engine tells. */
public enum FrameKind {
    /** Compiled or interpreted Java code. */
    JAVA,
    /** A Java method inlined into its caller by the JIT. */
    INLINED,
    /** Native code (JNI, the JVM, libc). */
    NATIVE,
    /** Kernel code. */
    KERNEL,
    /** The engine did not say. */
    UNKNOWN
}
