package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.FrameKind;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FrameNamesTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "app.Foo$$Lambda$123/0x0000000801234abc.run | app.Foo$$Lambda.run",
            "app.Foo$$Lambda/0x00007f0001234000.run | app.Foo$$Lambda.run",
            "app.Foo$$Lambda.0x00007f0001234000.run | app.Foo$$Lambda.run",
            "app.Foo$$Lambda$12/1234567.run | app.Foo$$Lambda.run",
            "app.Foo$$Lambda$12.add | app.Foo$$Lambda.add",
            "app.Foo$$Lambda$285+0x00007f63fc150a08.442125849.run | app.Foo$$Lambda.run",
            "java.lang.invoke.LambdaForm$MH/0x0000000800c0c400.invoke | java.lang.invoke.LambdaForm$MH.invoke",
            "jdk.internal.reflect.GeneratedMethodAccessor12.invoke | jdk.internal.reflect.GeneratedMethodAccessor.invoke",
            "jdk.internal.reflect.GeneratedConstructorAccessor7.newInstance | "
                    + "jdk.internal.reflect.GeneratedConstructorAccessor.newInstance",
            "jdk.proxy2.$Proxy42.save | jdk.proxy.$Proxy.save",
            "com.sun.proxy.$Proxy7.save | com.sun.proxy.$Proxy.save",
            "app.OrderService$$SpringCGLIB$$0.place | app.OrderService$$SpringCGLIB.place",
            "app.OrderService$$EnhancerBySpringCGLIB$$1a2b3c4d.place | app.OrderService$$EnhancerBySpringCGLIB.place",
            "app.Order$HibernateProxy$Xy12Ab.getId | app.Order$HibernateProxy.getId",
            "java/lang/Thread.run | java.lang.Thread.run",
            "app.Outer$Inner.work | app.Outer$Inner.work",
            "java.util.HashMap.<init> | java.util.HashMap.<init>",
    })
    void normalizesJavaNamesSoTheSameCodeMerges(String raw, String expected) {
        Frame frame = FrameNames.normalize(raw, FrameKind.JAVA);
        assertThat(frame.name()).isEqualTo(expected);
        assertThat(FrameNames.normalize(frame.name(), frame.kind())).isEqualTo(frame);  // idempotent
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource(delimiter = '|', value = {
            "java/lang/Thread.run_[j] | java.lang.Thread.run | JAVA",
            "app.Util.sum_[i] | app.Util.sum | INLINED",
            "do_syscall_64_[k] | do_syscall_64 | KERNEL",
            "app.Main.loop_[0] | app.Main.loop | JAVA",
            "app.Main.loop_[1] | app.Main.loop | JAVA",
    })
    void asyncProfilerSuffixesGiveTheKind(String raw, String name, FrameKind kind) {
        assertThat(FrameNames.normalize(raw, FrameKind.UNKNOWN)).isEqualTo(new Frame(name, kind));
    }

    @Test
    void nativeNamesKeepTheirSlashes() {
        assertThat(FrameNames.normalize("/usr/lib/libc.so.6", FrameKind.NATIVE).name()).isEqualTo("/usr/lib/libc.so.6");
    }

    @Test
    void namesLoseWhatLineFormatsCannotCarry() {
        assertThat(FrameNames.normalize("evil\nname;x", FrameKind.NATIVE).name()).isEqualTo("evil name,x");
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(delimiter = '|', value = {
            "java.lang.Thread.run | JAVA",
            "java/lang/Thread.run | JAVA",
            "java.util.HashMap.<init> | JAVA",
            "[truncated] | UNKNOWN",
            "[http-nio-8080-exec-*] | UNKNOWN",
            "__memmove_avx_unaligned_erms | NATIVE",
            "os::javaTimeNanos | NATIVE",
            "libc.so.6 | NATIVE",
            "libjvm.so | NATIVE",
    })
    void guessesTheKindOfCollapsedFramesWithoutSuffix(String name, FrameKind kind) {
        assertThat(FrameNames.guessKind(name)).isEqualTo(kind);
    }
}
