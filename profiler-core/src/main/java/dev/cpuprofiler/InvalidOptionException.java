package dev.cpuprofiler;

/** A setting is out of its allowed range; the message names the property, the value and the range. */
public final class InvalidOptionException extends IllegalArgumentException {

    private final String property;
    private final String value;
    private final String allowed;

    public InvalidOptionException(String property, Object value, String allowed) {
        super("Invalid value '" + value + "' for " + property + ": " + allowed);
        this.property = property;
        this.value = String.valueOf(value);
        this.allowed = allowed;
    }

    /** Throws one for {@code property} unless its value is {@code allowed}, {@code rule} saying what is. */
    public static void check(String property, Object value, boolean allowed, String rule) {
        if (!allowed) {
            throw new InvalidOptionException(property, value, rule);
        }
    }

    /** The full property name, e.g. {@code profiler.cpu.threshold}. */
    public String property() {
        return property;
    }

    public String value() {
        return value;
    }

    /** The allowed range, in words. */
    public String allowed() {
        return allowed;
    }
}
