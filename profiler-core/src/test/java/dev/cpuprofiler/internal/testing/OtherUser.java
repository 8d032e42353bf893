package dev.cpuprofiler.internal.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;

/** Another user of the machine, to hand a directory to: only root may, so elsewhere the test says why it skips. */
public final class OtherUser {

    private OtherUser() {
    }

    /** The user {@code nobody}, if this process may give it a file in {@code dir}; else null, and the reason printed. */
    public static UserPrincipal nobody(Path dir) {
        try {
            UserPrincipal nobody = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
            Path probe = Files.createTempFile(dir, "owner-probe", "");
            try {
                Files.setOwner(probe, nobody);
            } finally {
                Files.delete(probe);
            }
            return nobody;
        } catch (IOException | UnsupportedOperationException e) {
            System.out.println("[skip] cannot give a file to the user nobody here (" + e + "): another owner not checked");
            return null;
        }
    }
}
