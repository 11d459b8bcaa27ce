package io.qawk.orchestrator.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.LauncherDiscoveryListener;

/** The two surefire forks must not discover test classes at the same time (see {@link ForkDiscoveryLock}). */
class ForkDiscoveryLockTest {

    @Test
    void aDiscoveryWaitsWhileAnotherProcessDiscovers(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(ForkDiscoveryLock.LOCK_FILE);
        Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), ForkDiscoveryLock.class.getName(), file.toString())
                .redirectErrorStream(true).start();
        try {
            var out = new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("held");

            CompletableFuture<Void> mine = CompletableFuture.runAsync(() -> ForkDiscoveryLock.acquire(file));
            assertThatThrownBy(() -> mine.get(1, TimeUnit.SECONDS)).isInstanceOf(TimeoutException.class);

            other.getOutputStream().close();
            mine.get(30, TimeUnit.SECONDS);
            assertThat(other.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            ForkDiscoveryLock.release();
            other.destroyForcibly();
        }
    }

    @Test
    void junitFindsTheListenerAndTheLockLiesBesideTheTestClasses() {
        assertThat(ServiceLoader.load(LauncherDiscoveryListener.class).stream().map(p -> p.type().getName()))
                .contains(ForkDiscoveryLock.class.getName());
        Path lock = ForkDiscoveryLock.lockFile();
        assertThat(lock.getParent().resolve("test-classes")).isDirectory();
    }
}
