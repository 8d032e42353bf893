package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuBreakdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.internal.threads.ThreadGroupClassifier.Rule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ThreadGroupClassifierTest {

    /** Each name as comm shows it (the kernel's 15-byte cut) and, where it differs, as Java shows it. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            // G1 and Parallel, as listed by JDK 17 and 25
            "GC Thread#0|GC", "GC Thread#13|GC", "G1 Main Marker|GC", "G1 Conc#0|GC", "G1 Refine#0|GC",
            "G1 Service|GC", "G1 Young RemSe|GC", "G1 Young RemSet Sampling|GC",
            // ZGC, JDK 17 and generational (25)
            "ZWorker#0|GC", "ZUnmapper|GC", "ZUncommitter|GC", "ZUncommitter#0|GC", "ZDriver|GC", "ZDriverMinor|GC",
            "ZDriverMajor|GC", "ZDirector|GC", "ZStat|GC", "ZWorkerYoung#0|GC", "ZWorkerOld#0|GC",
            "RuntimeWorker#1|GC",
            // Shenandoah
            "Shenandoah GC T|GC", "Shenandoah GC Threads|GC", "Shenandoah Cont|GC", "Shenandoah Unco|GC",
            "Safepoint Clean|GC", "Safepoint Cleanup Thread|GC",
            "StrDedup|GC", "StringDedupThre|GC", "StringDedupThread|GC",
            // JIT
            "C2 CompilerThre|JIT", "C1 CompilerThre|JIT", "C2 CompilerThread0|JIT", "C1 CompilerThread12|JIT",
            "JVMCI CompilerT|JIT", "JVMCI-native Co|JIT", "JVMCI CompilerThread0|JIT", "Sweeper thread|JIT",
            // profilers
            "cpuprofiler-sam|PROFILER", "cpuprofiler-sampler|PROFILER", "cpuprofiler-ses|PROFILER",
            "JFR Recorder Th|PROFILER", "JFR Recorder Thread|PROFILER", "JFR Periodic Ta|PROFILER",
            "JFR Thread Samp|PROFILER", "JFR Sampler Thr|PROFILER", "JFR CPU Sampler|PROFILER",
            "JFR CPU Sampler Thread|PROFILER", "JFR Recording Scheduler|PROFILER",
            // the JVM's other threads
            "VM Thread|JVM_OTHER", "VM Periodic Tas|JVM_OTHER", "VM Periodic Task Thread|JVM_OTHER",
            "Service Thread|JVM_OTHER", "Monitor Deflati|JVM_OTHER", "Monitor Deflation Thread|JVM_OTHER",
            "Signal Dispatch|JVM_OTHER", "Signal Dispatcher|JVM_OTHER", "Reference Handl|JVM_OTHER",
            "Reference Handler|JVM_OTHER", "Finalizer|JVM_OTHER", "Common-Cleaner|JVM_OTHER",
            "Notification Th|JVM_OTHER", "Notification Thread|JVM_OTHER", "Attach Listener|JVM_OTHER",
            "AsyncLog Thread|JVM_OTHER", "JDWP Transport |JVM_OTHER", "JDWP Event Helper Thread|JVM_OTHER",
            // everything else
            "java|APPLICATION", "main|APPLICATION", "http-nio-8080-e|APPLICATION",
            "http-nio-8080-exec-1|APPLICATION", "ForkJoinPool.co|APPLICATION", "Thread-0|APPLICATION",
            "Zookeeper-clien|APPLICATION", "Z|APPLICATION", "G1|APPLICATION", "GC Thread|APPLICATION",
            "VM Thread-pool|APPLICATION", "Finalizers|APPLICATION", "C2 Compiler|APPLICATION",
            "JFR|APPLICATION", "cpuprofiler|APPLICATION", "Sweeper|APPLICATION", "DestroyJavaVM|APPLICATION"})
    void classifiesJavaAndCommNames(String name, CpuBreakdown.Group expected) {
        assertThat(ThreadGroupClassifier.classify(name)).isEqualTo(expected);
    }

    @Test
    void aCutNameOnlyMatchesWhenItIsExactlyCommLong() {
        // "Reference Hand" (14 bytes) is not what the kernel would show for "Reference Handler".
        assertThat(ThreadGroupClassifier.classify("Reference Hand")).isEqualTo(CpuBreakdown.Group.APPLICATION);
        assertThat(ThreadGroupClassifier.classify("Reference Handl")).isEqualTo(CpuBreakdown.Group.JVM_OTHER);
        // A longer name that merely starts like an exact rule is someone else's.
        assertThat(ThreadGroupClassifier.classify("Reference Handler-2")).isEqualTo(CpuBreakdown.Group.APPLICATION);
    }

    @Test
    void nullAndEmptyNamesAreApplication() {
        assertThat(ThreadGroupClassifier.classify(null)).isEqualTo(CpuBreakdown.Group.APPLICATION);
        assertThat(ThreadGroupClassifier.classify("")).isEqualTo(CpuBreakdown.Group.APPLICATION);
    }

    @Test
    void everyRuleMatchesItsOwnNameFullAndCutAndNoOtherGroupsRule() {
        for (Rule rule : ThreadGroupClassifier.RULES) {
            List<String> forms = new ArrayList<>(List.of(rule.name(), rule.name() + (rule.prefix() ? "#12" : "")));
            forms.add(cut(rule.name()));
            forms.add(cut(rule.name() + "0123456789abcdef"));
            for (String form : forms) {
                if (!rule.prefix() && form.length() > rule.name().length()) {
                    continue; // an exact rule's name plus something is not its name
                }
                assertThat(rule.matches(form)).as("%s matches %s", rule, form).isTrue();
                for (Rule other : ThreadGroupClassifier.RULES) {
                    if (other.group() != rule.group()) {
                        assertThat(other.matches(form)).as("%s also matches %s of %s", other, form, rule).isFalse();
                    }
                }
            }
        }
    }

    private static String cut(String name) {
        return name.length() <= ThreadGroupClassifier.COMM_LENGTH
                ? name : name.substring(0, ThreadGroupClassifier.COMM_LENGTH);
    }
}
