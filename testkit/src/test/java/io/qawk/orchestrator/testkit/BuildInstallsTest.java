package io.qawk.orchestrator.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a test waiting for the build's background installs sees, with the markers the install script leaves. */
class BuildInstallsTest {

    @TempDir
    Path checkout;

    private Path markers;
    private String before;
    private Process installer;

    @BeforeEach
    void aCheckout() throws Exception {
        before = System.getProperty("qawk.project.dir");
        System.setProperty("qawk.project.dir", checkout.toString());
        markers = Files.createDirectories(checkout.resolve("target/test-tools"));
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty("qawk.project.dir");
        } else {
            System.setProperty("qawk.project.dir", before);
        }
        if (installer != null) {
            installer.destroyForcibly();
        }
    }

    @Test
    void noMarkerIsNothingToWaitFor() {
        assertThat(BuildInstalls.await("browser")).isEmpty();
    }

    @Test
    void anInstallUnderWayIsWaitedForUntilItIsDone() throws Exception {
        installer = new ProcessBuilder("sleep", "60").start();
        Files.writeString(markers.resolve("prism.started"), installer.pid() + "\n");
        Instant t0 = Instant.now();
        CompletableFuture<Void> done = CompletableFuture.runAsync(() -> move("prism.started", "prism.done"),
                CompletableFuture.delayedExecutor(1500, TimeUnit.MILLISECONDS));

        assertThat(BuildInstalls.await("prism")).isEmpty();
        assertThat(Duration.between(t0, Instant.now())).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
        done.get(5, TimeUnit.SECONDS);
    }

    @Test
    void aFailedInstallSaysWhatItsInstallSaid() throws Exception {
        Files.writeString(markers.resolve("prometheus.failed"), "123\n");
        Files.writeString(markers.resolve("prometheus.log"), "install-prometheus: apt-get update failed\n");

        assertThat(BuildInstalls.await("prometheus")).hasValue(
                "the build's install of prometheus failed: install-prometheus: apt-get update failed");
    }

    @Test
    void anInstallWhoseScriptIsGoneIsNotWaitedFor() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        Files.writeString(markers.resolve("swupdate.started"), gone.pid() + "\n");
        Instant t0 = Instant.now();

        assertThat(BuildInstalls.await("swupdate")).isEmpty();
        assertThat(Duration.between(t0, Instant.now())).isLessThan(Duration.ofSeconds(2));
    }

    private void move(String from, String to) {
        try {
            Files.move(markers.resolve(from), markers.resolve(to));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
