package dev.cpuprofiler;


/**
 * Told of each profile the profile store keeps, as stored (its {@code .jfr} moved or gone), on the thread
 * that stored it: a session's own thread. It must return quickly and never block: hand the profile to a thread of
 * its own for anything slow (sending it somewhere). What it throws is logged and does not reach the session.
 */
@FunctionalInterface
public interface StoredProfileListener {

    void stored(Profile profile);
}
