package io.qawk.orchestrator.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * What the service's build installs while its tests already run ({@code service/src/test/scripts/
 * install-test-tools.sh}, started by Maven in the background before surefire: chromium, prometheus, swupdate, Prism),
 * so that apt-get and npm on a fresh machine do not hold up the first test. For each tool the script leaves in
 * {@code <checkout>/target/test-tools} {@code <name>.started} (its PID) at once, then {@code <name>.done} or
 * {@code <name>.failed}, and the install's output in {@code <name>.log}.
 *
 * <p>A test that needs a tool calls {@link #await(String)} before looking for it. Without a marker (an IDE run, the
 * tool installed by hand, or skipped) it returns at once; while the script lives and has not finished the tool, it
 * waits, up to {@link #AT_MOST}.
 */
public final class BuildInstalls {

    /** Longer than apt-get of chromium on a slow mirror takes. */
    static final Duration AT_MOST = Duration.ofMinutes(15);

    private BuildInstalls() {
    }

    /**
     * Waits until the build's install of {@code name} ({@code browser}, {@code prometheus}, {@code swupdate},
     * {@code prism}) is over; returns what its install said when it failed, empty otherwise.
     */
    public static Optional<String> await(String name) {
        Path dir = Path.of(System.getProperty("qawk.project.dir", ".."), "target", "test-tools");
        Path started = dir.resolve(name + ".started");
        Instant deadline = Instant.now().plus(AT_MOST);
        while (Files.exists(started) && installerAlive(started)) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("the build's install of " + name + " has not finished within "
                        + AT_MOST + ": see " + dir.resolve(name + ".log"));
            }
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
        }
        Path failed = dir.resolve(name + ".failed");
        if (!Files.exists(failed)) {
            return Optional.empty();
        }
        try {
            return Optional.of("the build's install of " + name + " failed: "
                    + Files.readString(dir.resolve(name + ".log"), StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            return Optional.of("the build's install of " + name + " failed (its log unreadable: " + e + ")");
        }
    }

    /** Whether the script that wrote {@code started} still runs (a Maven killed mid-install leaves the file). */
    private static boolean installerAlive(Path started) {
        try {
            long pid = Long.parseLong(Files.readString(started, StandardCharsets.UTF_8).strip());
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException | NumberFormatException e) {
            return false; // moved to .done/.failed meanwhile, or written by something else
        }
    }
}
