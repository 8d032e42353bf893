package dev.cpuprofiler;


/** Only one session runs at a time; this one was asked for while another was recording. */
public final class SessionAlreadyRunningException extends RuntimeException {

    private final transient RunningSession running;

    public SessionAlreadyRunningException(RunningSession running) {
        super("A profiling session is already running: " + running.id() + " (" + running.trigger()
                + ", started " + running.startedAt() + ")");
        this.running = running;
    }

    public RunningSession running() {
        return running;
    }
}
