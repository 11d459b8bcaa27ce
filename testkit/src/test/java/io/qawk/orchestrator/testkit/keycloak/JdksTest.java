package io.qawk.orchestrator.testkit.keycloak;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Finding a JDK new enough for Keycloak, and saying clearly when the one named is not. */
class JdksTest {

    @AfterEach
    void forget() {
        System.clearProperty(Jdks.PROPERTY);
    }

    @Test
    void aJdksVersionIsReadFromItsReleaseFile(@TempDir Path dir) throws IOException {
        assertThat(Jdks.featureOf(fakeJdk(dir.resolve("jdk25"), "25.0.3"))).isEqualTo(25);
        assertThat(Jdks.featureOf(fakeJdk(dir.resolve("jdk17"), "17.0.15"))).isEqualTo(17);
        assertThat(Jdks.featureOf(dir)).as("no JDK").isEqualTo(-1);
    }

    @Test
    void aNamedJdkIsTakenWhenNewEnoughAndRefusedSayingWhyWhenNot(@TempDir Path dir) throws IOException {
        Path jdk25 = fakeJdk(dir.resolve("jdk25"), "25.0.3");
        System.setProperty(Jdks.PROPERTY, jdk25.toString());
        assertThat(Jdks.atLeast(21, "Keycloak")).isEqualTo(jdk25);

        System.setProperty(Jdks.PROPERTY, fakeJdk(dir.resolve("jdk17"), "17.0.15").toString());
        assertThatThrownBy(() -> Jdks.atLeast(21, "Keycloak"))
                .hasMessageContaining("Keycloak needs a JDK 21 or newer").hasMessageContaining("Java 17")
                .hasMessageContaining(Jdks.PROPERTY);
        System.setProperty(Jdks.PROPERTY, dir.resolve("nothing").toString());
        assertThatThrownBy(() -> Jdks.atLeast(21, "Keycloak")).hasMessageContaining("not a JDK");
    }

    private static Path fakeJdk(Path home, String version) throws IOException {
        Files.createDirectories(home.resolve("bin"));
        Path java = Files.writeString(home.resolve("bin/java"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"" + version + "\"\n");
        return home;
    }
}
