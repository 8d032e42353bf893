package dev.cpuprofiler.internal.engine;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import jdk.jfr.FlightRecorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JFR's JVM-wide setup, done once before the profiler first records with it: the stack depth, the global buffers, and
 * where it pays, JFR's initialisation itself.
 *
 * <p>JFR keeps 64 frames per stack unless told otherwise, and a Spring MVC request is 80–150 frames deep: the controller
 * and everything above it would be cut off. JFR's depth is one global setting that it reads once, when JFR is first
 * initialised in the JVM; before that, the {@code jfrConfigure} diagnostic command can raise it (JDK 21+ ignore it
 * afterwards, and on JDK 17 changing it under a running sampler is unsafe). So the profiler raises it before look-back
 * or a session touches JFR, and where someone else initialised JFR first it says what depth is in force and how to
 * raise it.
 *
 * <p>In the same call it lowers JFR's global buffers from its default 20 of 512 KB to {@link #GLOBAL_BUFFERS}, memory
 * JFR keeps for the JVM's life once it starts: the profiler's recordings (a few hundred samples a second) never fill
 * them. ({@code memorysize} would be the documented knob, but at run time JFR only echoes it: its buffers were sized
 * when the JVM started; the buffer count is read when JFR initialises.) A JVM given {@code -XX:FlightRecorderOptions}
 * keeps its own settings.
 *
 * <p>And where the profiler will record with JFR by itself, it initialises JFR right after, while the application's
 * code is still cold, on the JDKs that instrument their own file and socket classes as JFR initialises (before 23):
 * HotSpot then throws away every compiled method, and a busy application initialising JFR lost a third of its
 * throughput to the JIT for half a minute.
 */
public final class JfrSetup {

    /** The deepest JFR accepts. */
    public static final int JFR_MAX = 2048;

    private static final Logger log = LoggerFactory.getLogger(JfrSetup.class);
    /** JFR's global buffers (of 512 KB) where the JVM was given no JFR options: JFR's default is 20. */
    static final int GLOBAL_BUFFERS = 4;

    private static final Pattern DEPTH = Pattern.compile("Stack depth:\\s*(\\d+)");
    private static final Pattern DEFAULT_BUFFERS = Pattern.compile("Global buffer count:\\s*20\\b");

    /** The {@code jfrConfigure} diagnostic command: its arguments in, its text out. */
    @FunctionalInterface
    public interface ConfigureCommand {
        String run(String... arguments) throws Exception;
    }

    /**
     * What depth JFR records with.
     *
     * @param wanted the depth asked for (max-stack-depth, at most {@link #JFR_MAX})
     * @param inForce JFR's depth now, or -1 when it could not be read
     * @param raised whether this profiler raised it
     * @param problem why the wanted depth is not in force, or null when it is
     */
    public record State(int wanted, int inForce, boolean raised, String problem) {

        /** The sentence every JFR profile carries when stacks may be cut short, or empty. */
        public Optional<String> note() {
            return Optional.ofNullable(problem);
        }
    }

    /** The first JDK whose JFR no longer instruments the JDK's own I/O classes when it initialises. */
    static final int FIRST_JDK_NOT_INSTRUMENTING = 23;

    private final ConfigureCommand command;
    private final BooleanSupplier jfrInitialized;
    private final boolean optionsGiven;
    private final Runnable initialize;
    private State state;

    /** The platform's {@code com.sun.management:type=DiagnosticCommand} MBean and JFR's own initialised flag. */
    public JfrSetup() {
        this(JfrSetup::platformConfigure, JfrSetup::platformInitialized, flightRecorderOptionsGiven(),
                FlightRecorder::getFlightRecorder);
    }

    /** A stand-in JFR: nothing is initialised. */
    public JfrSetup(ConfigureCommand command, BooleanSupplier jfrInitialized) {
        this(command, jfrInitialized, false, () -> { });
    }

    /**
     * @param optionsGiven the JVM was started with {@code -XX:FlightRecorderOptions}: its buffers are left as given
     * @param initialize initialises JFR
     */
    public JfrSetup(ConfigureCommand command, BooleanSupplier jfrInitialized, boolean optionsGiven,
            Runnable initialize) {
        this.command = command;
        this.jfrInitialized = jfrInitialized;
        this.optionsGiven = optionsGiven;
        this.initialize = initialize;
    }

    /**
     * Initialises JFR now, after {@link #ensure}, where initialising it later would cost a busy application its
     * compiled code (JDKs before {@value #FIRST_JDK_NOT_INSTRUMENTING}); nothing where JFR cannot record or is already
     * initialised.
     *
     * @return whether it initialised JFR
     */
    public boolean initializeWhileCold() {
        if (Runtime.version().feature() >= FIRST_JDK_NOT_INSTRUMENTING || JfrAvailability.whyUnavailable() != null
                || jfrInitialized.getAsBoolean()) {
            return false;
        }
        initialize.run();
        return true;
    }

    /**
     * Makes JFR keep at least {@code depth} frames if it still can; says once (WARN) when it cannot. Idempotent: the
     * first call decides, later ones return its state.
     */
    public synchronized State ensure(int depth) {
        if (state != null) {
            return state;
        }
        int wanted = Math.max(1, Math.min(depth, JFR_MAX));
        state = decide(wanted);
        if (state.problem() != null && state.inForce() >= 0) {
            log.warn("{}", state.problem());
        } else if (state.problem() != null) {
            log.info("{}", state.problem()); // typically no JFR in this JVM at all: the JFR engines say so themselves
        } else {
            log.debug("JFR stack depth {} ({})", state.inForce(), state.raised() ? "raised by the profiler" : "as set");
        }
        return state;
    }

    /** The state {@link #ensure} settled on, or empty before it ran (JFR engines then record with JFR's depth). */
    public synchronized Optional<State> state() {
        return Optional.ofNullable(state);
    }

    private State decide(int wanted) {
        String raise = "add -XX:FlightRecorderOptions:stackdepth=" + wanted + " to the JVM's options to keep them whole";
        String configuration;
        int current;
        try {
            configuration = command.run();
            current = parse(configuration);
        } catch (Exception | LinkageError e) {
            return new State(wanted, -1, false, "JFR's stack depth could not be read (" + e
                    + "); JFR profiles may cut stacks deeper than 64 frames at the root: " + raise);
        }
        List<String> changes = new ArrayList<>();
        if (current < wanted) {
            changes.add("stackdepth=" + wanted);
        }
        if (!optionsGiven && DEFAULT_BUFFERS.matcher(configuration).find()) {
            changes.add("globalbuffercount=" + GLOBAL_BUFFERS);
        }
        if (changes.isEmpty()) {
            return new State(wanted, current, false, null);
        }
        boolean initialized;
        try {
            initialized = jfrInitialized.getAsBoolean();
        } catch (RuntimeException | LinkageError e) {
            initialized = true; // unknown: changing the depth under a running JFR is unsafe, so do not
        }
        if (initialized) {
            return current >= wanted ? new State(wanted, current, false, null) : new State(wanted, current, false,
                    "JFR keeps only " + current + " frames per stack: it was started before the profiler (by "
                    + "-XX:StartFlightRecording, an agent or a library), and its depth cannot change afterwards. JFR "
                    + "profiles cut deeper stacks at the root; " + raise);
        }
        try {
            String out = command.run(changes.toArray(String[]::new));
            int now = current < wanted ? parse(out) : current; // it echoes only what it changed
            if (now >= wanted) {
                return new State(wanted, now, current < wanted, null);
            }
            return new State(wanted, now, false, "JFR refused to raise its stack depth to " + wanted + " (it keeps "
                    + now + " frames); JFR profiles cut deeper stacks at the root: " + raise);
        } catch (Exception | LinkageError e) {
            return new State(wanted, current, false, current >= wanted ? null : "JFR's stack depth could not be "
                    + "raised to " + wanted + " (" + e + "); it keeps " + current + " frames: " + raise);
        }
    }

    private static boolean flightRecorderOptionsGiven() {
        try {
            return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                    .anyMatch(a -> a.startsWith("-XX:FlightRecorderOptions"));
        } catch (RuntimeException | LinkageError e) {
            return true; // unknown: leave JFR's buffers as they are
        }
    }

    static int parse(String output) {
        Matcher m = DEPTH.matcher(output == null ? "" : output);
        if (!m.find()) {
            throw new IllegalStateException("no 'Stack depth' in the jfrConfigure output: " + output);
        }
        return Integer.parseInt(m.group(1));
    }

    private static String platformConfigure(String... arguments) throws Exception {
        Object out = ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "jfrConfigure",
                new Object[] {arguments}, new String[] {String[].class.getName()});
        return String.valueOf(out);
    }

    private static boolean platformInitialized() {
        return FlightRecorder.isInitialized();
    }
}
