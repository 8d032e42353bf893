package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkDirectoryTest {

    @TempDir
    Path tmp;

    @Test
    void eachProfilerGetsItsOwnUnguessableNameUnderTheTempDirectory() {
        WorkDirectory a = WorkDirectory.inTemp();
        WorkDirectory b = WorkDirectory.inTemp();
        assertThat(a.path()).isNotEqualTo(b.path());
        assertThat(a.path().getParent()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
        assertThat(a.path().getFileName().toString())
                .startsWith("cpuprofiler-" + ProcessHandle.current().pid() + "-");
        assertThat(a.path()).doesNotExist();
    }

    @Test
    void closeDeletesWhatTheEnginesLeftAndToleratesADirectoryNeverCreated() throws Exception {
        WorkDirectory never = WorkDirectory.in(tmp.resolve("never"));
        never.close();
        assertThat(tmp.resolve("never")).doesNotExist();

        Path given = Files.createDirectories(tmp.resolve("given"));
        Path theirs = Files.writeString(given.resolve("theirs.txt"), "not the profiler's");
        WorkDirectory used = WorkDirectory.in(given);
        OwnerOnlyDirectory.create(used.path().resolve("nested"));
        Files.writeString(used.path().resolve("nested/a.jfr"), "x");
        Files.writeString(used.path().resolve("b.jfr"), "y");
        used.close();
        assertThat(used.path()).doesNotExist();
        assertThat(theirs).exists();
    }

    @Test
    void ownerOnlyDirectoriesAreReadableByThisUserAlone() throws Exception {
        Path dir = OwnerOnlyDirectory.create(tmp.resolve("a/b"));
        assertThat(dir).isDirectory();
        if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.getParent())))
                    .isEqualTo("rwx------");
        } else {
            System.out.println("[skip] no POSIX permissions on this filesystem: mode not checked");
        }
        assertThat(OwnerOnlyDirectory.create(dir)).isEqualTo(dir);
    }
}
