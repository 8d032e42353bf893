package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.FrameKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadNamesTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "http-nio-8080-exec-12 | http-nio-8080-exec-*",
            "pool-3-thread-7 | pool-*-thread-*",
            "ForkJoinPool.commonPool-worker-3 | ForkJoinPool.commonPool-worker-*",
            "ForkJoinPool-1-worker-3 | ForkJoinPool-*-worker-*",
            "nioEventLoopGroup-2-1 | nioEventLoopGroup-*-*",
            "C2 CompilerThread0 | C2 CompilerThread*",
            "GC Thread#3 | GC Thread#*",
            "Thread-0 | Thread-*",
            "md5-1 | md5-*",
            "main | main",
            "Reference Handler | Reference Handler",
    })
    void foldsNumberedThreads(String name, String folded) {
        assertThat(ThreadNames.fold(name)).isEqualTo(folded);
    }

    @Test
    void aThreadsGroupIsItsFoldedName() {
        assertThat(ThreadNames.groupFrame("scheduling-1")).isEqualTo(new Frame("scheduling-*", FrameKind.THREAD));
        assertThat(ThreadNames.group(null)).isEqualTo(ThreadNames.UNKNOWN_THREAD);
    }
}
