package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.SessionTrigger;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Names profiles {@code <UTC second>-<trigger>-<sequence>-<instance>}, e.g. {@code 20261126T043053Z-manual-1-k3f9q2ab}:
 * they sort by time, read as what they are, and are safe in a URL and a file name. The instance part, random for each
 * profiler, keeps apart the ids (and so the files) of instances that share an output directory.
 */
final class ProfileIds {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    /** 8 base-36 characters: about 41 random bits. */
    private static final int INSTANCE_CHARS = 8;

    private final String instance;
    private final AtomicLong sequence = new AtomicLong();

    ProfileIds(String instance) {
        if (!instance.matches("[0-9a-z]{1,16}")) {
            throw new IllegalArgumentException("an instance part is 1 to 16 lower-case letters and digits");
        }
        this.instance = instance;
    }

    /** With a random instance part of its own. */
    static ProfileIds random() {
        String digits = Long.toString(new SecureRandom().nextLong() >>> (64 - 41), 36);
        return new ProfileIds("0".repeat(Math.max(0, INSTANCE_CHARS - digits.length())) + digits);
    }

    /** The next profile's id, for a session of {@code trigger} starting {@code at}. */
    String next(SessionTrigger trigger, Instant at) {
        return TIME.format(at) + "-" + trigger.name().toLowerCase(Locale.ROOT) + "-" + sequence.incrementAndGet() + "-"
                + instance;
    }
}
