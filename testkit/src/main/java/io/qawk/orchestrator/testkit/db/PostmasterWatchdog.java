package io.qawk.orchestrator.testkit.db;

import org.jboss.logging.Logger;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Stops the embedded Postgres when the JVM that started it dies, however it dies.
 *
 * <p>The postmaster is not a child of the JVM ({@code pg_ctl} starts it in a session of its own and exits), so a
 * SIGKILL of the JVM, or the OOM killer, leaves it running: no shutdown hook runs. The watchdog is a tiny
 * {@code sh} child of the JVM that reads its standard input, a pipe whose only writer is the JVM, until end of file.
 * The operating system closes that pipe when the JVM is gone, at once and whatever the cause, so there is no polling
 * and no PID of the JVM that could be reused; the watchdog then sends SIGINT (Postgres' fast shutdown, what
 * {@code pg_ctl stop -m fast} sends) to the postmaster, but only if {@code postmaster.pid} still names it, so a PID
 * reused after a clean stop is never signalled. It exits right after; on a normal stop the JVM destroys it (or, at
 * JVM exit, it wakes to find the lock file gone and exits), so it never outlives the JVM by more than that.
 * Why not only "the next start cleans up" ({@link LeftoverPostmaster}): a service that is not started again would
 * leave a server running for good. The next start still clears an orphan (the watchdog may have been killed too).
 *
 * <p>Portable to Linux and macOS: POSIX {@code sh}, {@code read}, {@code head}, {@code kill}; the JVM closes its
 * other file descriptors in every child it starts, so no other process holds the pipe open. Not on Windows (no
 * {@code sh}): there only the next start cleans up.
 */
final class PostmasterWatchdog {

    /** $1: the lock file, $2: the postmaster's PID. The loop ends at end of file (the JVM died or let go). */
    static final String SCRIPT = "while read -r _; do :; done; "
            + "[ \"$(head -n 1 \"$1\" 2>/dev/null)\" = \"$2\" ] && kill -INT \"$2\"; exit 0";

    private static final Logger LOG = Logger.getLogger(PostmasterWatchdog.class);

    private final Process process;

    private PostmasterWatchdog(Process process) {
        this.process = process;
    }

    /** Starts a watchdog for the postmaster now running in {@code dataDir}; empty where none can run. */
    static Optional<PostmasterWatchdog> start(Path dataDir) {
        if (System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows")) {
            return Optional.empty();
        }
        Optional<PostmasterPidFile> pidFile = PostmasterPidFile.read(dataDir);
        if (pidFile.isEmpty()) {
            LOG.warnf("No %s in %s: the embedded Postgres runs without a watchdog", PostmasterPidFile.NAME, dataDir);
            return Optional.empty();
        }
        try {
            Process p = new ProcessBuilder("sh", "-c", SCRIPT, "qawk-postgres-watchdog",
                    dataDir.resolve(PostmasterPidFile.NAME).toString(), String.valueOf(pidFile.get().pid()))
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            // the JVM keeps p (and so the pipe's writing end) reachable while p runs: its exit is awaited
            LOG.debugf("Postgres watchdog %d watches postmaster %d", p.pid(), pidFile.get().pid());
            return Optional.of(new PostmasterWatchdog(p));
        } catch (IOException e) {
            LOG.warnf("Could not start the Postgres watchdog (%s): a postmaster left by a crash is stopped at the next "
                    + "start only", e.getMessage());
            return Optional.empty();
        }
    }

    long pid() {
        return process.pid();
    }

    /** Ends the watchdog without it signalling anything (the server was stopped by other means). */
    void cancel() {
        process.destroy();
    }
}
