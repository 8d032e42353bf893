package dev.cpuprofiler.sample.work;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.springframework.stereotype.Component;

/**
 * Key stretching the slow way a password store does it: SHA-256 applied again and again to its own output.
 * The profile shows {@link #stretch(String, int)} with the JDK's SHA-256 code under it.
 */
@Component
public class PasswordHasher {

    /** The most rounds one request may ask for. */
    public static final int MAX_ROUNDS = 1_000_000;

    private static final byte[] SALT = "cpuprofiler-sample-salt".getBytes(StandardCharsets.UTF_8);

    /** The hex digest after {@code rounds} rounds of SHA-256 over salt, password and the previous digest. */
    public String stretch(String password, int rounds) {
        MessageDigest sha256 = newSha256();
        byte[] secret = password.getBytes(StandardCharsets.UTF_8);
        sha256.update(SALT);
        sha256.update(secret);
        byte[] digest = sha256.digest();
        for (int i = 1; i < rounds; i++) {
            sha256.update(digest);
            sha256.update(secret);
            digest = sha256.digest();
        }
        return HexFormat.of().formatHex(digest);
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
