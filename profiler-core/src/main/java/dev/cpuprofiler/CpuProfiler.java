package dev.cpuprofiler;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;

/**
 * The CPU profiler: watches the process's CPU (its cgroup's when it has one), keeps a smoothed baseline, records a
 * profile when the baseline stays above the threshold, keeps the recent profiles. Building one starts no thread;
 * {@link #start()} starts the sampler, the look-back and the trigger; {@link #close()} stops everything.
 *
 * <pre>{@code
 * CpuProfilerOptions options = new CpuProfilerOptions();
 * options.setThreshold(70);
 * CpuProfiler profiler = CpuProfiler.builder(options).build();
 * profiler.start();
 * }</pre>
 */
public interface CpuProfiler extends AutoCloseable {

    /** The id {@link #profile(String)} takes for the newest profile that is not a reference of normal. */
    String LATEST = "latest";

    /**
     * Why a session stopped before its planned end when the profiler shut down: its outcome's reason, and the start of
     * its profile's first note.
     */
    String CUT_SHORT_BY_SHUTDOWN = "cut short by shutdown";

    /** A profiler with these options (validated when it is built) and production defaults for everything else. */
    static Builder builder(CpuProfilerOptions options) {
        return new Builder(options);
    }

    /** Starts sampling and the trigger. Idempotent; fails once closed. */
    void start();

    /**
     * Starts an on-demand profile of this length (within what {@code profiler.cpu.duration} allows).
     *
     * @throws InvalidOptionException when the length is not between {@link CpuProfilerOptions#MIN_DURATION} and
     *     {@link CpuProfilerOptions#MAX_DURATION}
     * @throws SessionAlreadyRunningException when a session records or is being launched (a reference of normal
     *     recording is cancelled instead)
     * @throws SessionStartException when no engine can record here
     */
    RunningSession startOnDemand(Duration duration);

    /**
     * Everything the profiler can tell about itself, taken now: what the endpoint, the status page and the meters
     * show. Never waits for a session or a launch.
     */
    CpuProfilerStatus status();

    /** The kept profiles, newest first, the references of normal kept among them. */
    List<Profile> profiles();

    /** The profile with this id, or the newest that is not a reference of normal for {@value #LATEST}. */
    Optional<Profile> profile(String id);

    /** The options in force (a copy). */
    CpuProfilerOptions options();

    /** The session recording now, if any; empty while one is still being launched. Never waits. */
    Optional<RunningSession> activeSession();

    /**
     * Where requests report which thread serves them, so that profiles say which requests burned the CPU
     * ({@link Profile.Requests#endpoints()}); the starter's observation handler reports every root observation here.
     */
    RequestActivity requestActivity();

    /** Ends the session recording now, if any, with this reason; later sessions start as usual. */
    void cancelActive(String reason);

    /**
     * The first step of shutting down, before {@link #close()} (which takes it too): no session starts from now on (an
     * on-demand start fails, the trigger stays quiet), a launch under way is waited for, and the session recording, if
     * any, stops early and keeps what it recorded: its profile is stored, written to the output directory and handed to
     * the listeners as any other, lasts as long as it recorded, and its first note and its outcome's reason say
     * {@value #CUT_SHORT_BY_SHUTDOWN}. Does not wait for that: the session's {@link RunningSession#outcome() outcome}
     * completes once its profile is stored. Idempotent.
     *
     * @return the session stopping, or empty when none records
     */
    Optional<RunningSession> stopForShutdown();

    /** Tells the listener how every session ends, on the session's thread. */
    void addSessionEndListener(SessionEndListener listener);

    /**
     * Tells the listener of every profile the profiler keeps from now on, as kept (its {@code .jfr} moved or gone), on
     * the thread that stored it: a session's own. It must return quickly and never block: hand the profile to a thread
     * of its own for anything slow (an exporter queues it). What it throws is logged and does not reach the session.
     */
    void addStoredProfileListener(Consumer<Profile> listener);

    /** Stops telling the listener. */
    void removeStoredProfileListener(Consumer<Profile> listener);

    /**
     * Stops a running session early as {@link #stopForShutdown()} does, waits a few seconds at most for its profile to
     * be stored, and stops every thread the profiler started. Idempotent.
     */
    @Override
    void close();

    /** Builds a {@link CpuProfiler}; production defaults for what is not set. */
    final class Builder {

        private final CpuProfilerOptions options;
        private Path fsRoot = Path.of("/");
        private Clock clock = Clock.systemUTC();
        private ThreadFactory threadFactory = Thread::new;
        private Path workDirectory;
        private boolean virtualThreads;

        private Builder(CpuProfilerOptions options) {
            this.options = Objects.requireNonNull(options, "options");
        }

        /** Where {@code proc/} and {@code sys/fs/cgroup/} are found; {@code /} in production. */
        public Builder fsRoot(Path fsRoot) {
            this.fsRoot = Objects.requireNonNull(fsRoot, "fsRoot");
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Makes every thread the profiler starts; they are named {@code cpuprofiler-*} and made daemons. */
        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
            return this;
        }

        /**
         * Where engines write temporary recordings: the profiler makes a private directory of its own in it (default:
         * in java.io.tmpdir) and deletes only that on close, never what else is there.
         */
        public Builder workDirectory(Path workDirectory) {
            this.workDirectory = Objects.requireNonNull(workDirectory, "workDirectory");
            return this;
        }

        /**
         * Whether the application serves requests on virtual threads ({@code spring.threads.virtual.enabled}):
         * {@code auto} then prefers an engine that samples virtual threads, so that profiles can name the request
         * each sample served. The profiler also notices virtual threads in requests while a profile records.
         */
        public Builder virtualThreads(boolean virtualThreads) {
            this.virtualThreads = virtualThreads;
            return this;
        }

        public CpuProfilerOptions options() {
            return options;
        }

        public boolean virtualThreads() {
            return virtualThreads;
        }

        public Path fsRoot() {
            return fsRoot;
        }

        public Clock clock() {
            return clock;
        }

        public ThreadFactory threadFactory() {
            return threadFactory;
        }

        /** The work directory set, or null for the default. */
        public Path workDirectory() {
            return workDirectory;
        }

        /**
         * @throws InvalidOptionException when an option is out of range, naming it
         * @throws IllegalStateException when profiler-core's implementation cannot be found (a class path without
         *         its {@code META-INF/services} entry)
         */
        public CpuProfiler build() {
            Provider provider = ServiceLoader.load(Provider.class, Provider.class.getClassLoader()).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no " + Provider.class.getName()
                            + " in META-INF/services: profiler-core's jar is incomplete (merged without its service "
                            + "files?)"));
            return provider.build(this);
        }
    }

    /**
     * What builds a {@link CpuProfiler} from a {@link Builder}: found with {@link ServiceLoader}, so that this API
     * refers to no implementation class and the pipeline's packages sit wholly below it. profiler-core provides the
     * one implementation ({@code META-INF/services/dev.cpuprofiler.CpuProfiler$Provider}); an application has no
     * reason to provide another.
     */
    interface Provider {

        /**
         * @param settings what the builder was given
         * @throws InvalidOptionException when an option is out of range, naming it
         */
        CpuProfiler build(Builder settings);
    }
}
