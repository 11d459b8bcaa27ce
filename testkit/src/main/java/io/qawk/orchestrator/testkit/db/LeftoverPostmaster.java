package io.qawk.orchestrator.testkit.db;

import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Makes a data folder free for a new embedded Postgres: a postmaster that an earlier process of ours started there
 * and left running when it died (SIGKILL, OOM killer) is stopped; a stale lock file is left to Postgres.
 *
 * <p>Before, such an orphan made every later start fail with {@code lock file "postmaster.pid" already exists}. What
 * {@link #clear} finds in {@code postmaster.pid}:
 * <ul>
 *   <li><b>no file</b>: nothing to do ({@link Outcome#FREE});
 *   <li><b>a PID that is not running</b> (the machine lost power): nothing to do either, Postgres removes a stale
 *       lock file itself when it starts ({@link Outcome#STALE});
 *   <li><b>a running program that is not Postgres</b> (after a reboot the PID went to something else): the file is
 *       stale but Postgres would refuse it, as it only checks that the PID is alive; it is removed
 *       ({@link Outcome#STALE_PID_REUSED});
 *   <li><b>a running {@code postgres -D <this folder>}</b> whose starter is gone: the orphan of an earlier process of
 *       ours. It is stopped as {@code pg_ctl stop -m fast} does (SIGINT: running transactions are rolled back, a
 *       checkpoint is written, nothing committed is lost) and awaited until it has removed its lock file; after
 *       the deadline it gets SIGQUIT (immediate shutdown: the next start replays the WAL) ({@link Outcome#STOPPED}).
 * </ul>
 * "Its starter is gone" is decided by the lock zonky's {@code EmbeddedPostgres} holds on {@code epg-lock} in the
 * folder for as long as the JVM that started the postmaster lives (a file lock: the operating system drops it when
 * that JVM dies, however it dies). While a live process holds it, or when the postmaster cannot be shown to be a
 * Postgres on this folder, nothing is touched and the start fails saying why: never two postmasters on one
 * folder, never a stop of somebody else's server. The folder's data is never deleted or re-initialised here.
 */
final class LeftoverPostmaster {

    /** What {@link #clear} found and did. */
    enum Outcome { FREE, STALE, STALE_PID_REUSED, STOPPED }

    /** zonky's lock file (EmbeddedPostgres.LOCK_FILE_NAME), held by the JVM running a postmaster on the folder. */
    static final String STARTER_LOCK = "epg-lock";

    private static final Logger LOG = Logger.getLogger(LeftoverPostmaster.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration AFTER_QUIT = Duration.ofSeconds(15);

    private LeftoverPostmaster() {
    }

    /**
     * Frees {@code dataDir} of a postmaster left running by a dead process of ours, waiting up to
     * {@code stopDeadline} for its fast shutdown.
     *
     * @throws IllegalStateException when a live process still uses the folder, or its postmaster cannot be stopped
     */
    static Outcome clear(Path dataDir, Duration stopDeadline) {
        Optional<PostmasterPidFile> pidFile = PostmasterPidFile.read(dataDir);
        if (pidFile.isEmpty()) {
            return Outcome.FREE;
        }
        long pid = pidFile.get().pid();
        Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (process.isEmpty()) {
            LOG.infof("The embedded Postgres in %s did not stop cleanly (postmaster PID %d is not running); "
                    + "Postgres removes its stale lock file and recovers", dataDir, pid);
            return Outcome.STALE;
        }
        if (isOtherProgram(process.get())) {
            LOG.warnf("%s in %s names PID %d, which is now %s, not a Postgres: removing the stale lock file",
                    PostmasterPidFile.NAME, dataDir, pid, process.get().info().command().orElse("?"));
            delete(dataDir.resolve(PostmasterPidFile.NAME));
            return Outcome.STALE_PID_REUSED;
        }
        if (!isPostgresOn(process.get(), dataDir)) {
            throw new IllegalStateException("The embedded Postgres data folder " + dataDir + " is held by process " + pid
                    + ", which cannot be shown to be a Postgres on this folder; stop it, or point QAWK_EMBEDDED_DB_DIR "
                    + "to another folder");
        }
        try (FileChannel channel = FileChannel.open(dataDir.resolve(STARTER_LOCK), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
             FileLock starter = tryLock(channel)) {
            if (starter == null) {
                throw new IllegalStateException("The embedded Postgres data folder " + dataDir + " is in use by another "
                        + "running process (postmaster PID " + pid + "); stop that service first, or point "
                        + "QAWK_EMBEDDED_DB_DIR to another folder");
            }
            LOG.warnf("An embedded Postgres (PID %d) was left running in %s by a service that died; stopping it",
                    pid, dataDir);
            stop(process.get(), dataDir, stopDeadline);
            return Outcome.STOPPED;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not check who uses " + dataDir, e);
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null; // this JVM holds it: its own running server
        }
    }

    private static void stop(ProcessHandle postmaster, Path dataDir, Duration deadline) {
        signal(postmaster.pid(), "INT");
        if (awaitGone(postmaster, dataDir, deadline)) {
            LOG.infof("The left-over Postgres (PID %d) in %s stopped cleanly", postmaster.pid(), dataDir);
            return;
        }
        LOG.warnf("The left-over Postgres (PID %d) in %s did not stop within %s; immediate shutdown (SIGQUIT)",
                postmaster.pid(), dataDir, deadline);
        signal(postmaster.pid(), "QUIT");
        if (!awaitGone(postmaster, dataDir, AFTER_QUIT)) {
            throw new IllegalStateException("The Postgres (PID " + postmaster.pid() + ") left running in " + dataDir
                    + " does not stop; stop it by hand (pg_ctl stop -D " + dataDir + ")");
        }
    }

    /**
     * Waits until the postmaster is done with the folder: its lock file no longer names it (Postgres removes it as
     * the last step of every shutdown but a crash) or it has exited (after a crash the file is stale, which Postgres
     * handles when it starts). The lock file counts on its own because an orphan whose parent does not reap it stays
     * a zombie, "alive" to {@link ProcessHandle#isAlive()}.
     */
    private static boolean awaitGone(ProcessHandle postmaster, Path dataDir, Duration max) {
        long end = System.nanoTime() + max.toNanos();
        while (postmaster.isAlive() && PostmasterPidFile.read(dataDir).filter(f -> f.pid() == postmaster.pid()).isPresent()) {
            if (System.nanoTime() - end > 0) {
                return false;
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Its executable is known and is not Postgres: the PID of a stale lock file went to another program. */
    static boolean isOtherProgram(ProcessHandle process) {
        return process.info().command().map(LeftoverPostmaster::fileName)
                .map(name -> !isPostgresExecutable(name)).orElse(false);
    }

    /** A {@code postgres -D <dataDir>} (as pg_ctl starts it), judged by its command line. */
    static boolean isPostgresOn(ProcessHandle process, Path dataDir) {
        ProcessHandle.Info info = process.info();
        if (info.command().map(LeftoverPostmaster::fileName).filter(LeftoverPostmaster::isPostgresExecutable).isEmpty()) {
            return false;
        }
        List<String> args = info.arguments().map(List::of).orElse(List.of());
        for (int i = 0; i + 1 < args.size(); i++) {
            if ("-D".equals(args.get(i)) && sameFolder(args.get(i + 1), dataDir)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isPostgresExecutable(String name) {
        return name.equals("postgres") || name.equals("postgres.exe") || name.equals("postmaster");
    }

    private static String fileName(String command) {
        Path name = Path.of(command).getFileName();
        return name == null ? command : name.toString();
    }

    private static boolean sameFolder(String given, Path dataDir) {
        try {
            Path p = Path.of(given);
            return p.toAbsolutePath().normalize().equals(dataDir.toAbsolutePath().normalize())
                    || (Files.exists(p) && Files.isSameFile(p, dataDir));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static void signal(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                LOG.warnf("kill -%s %d did not succeed", signal, pid);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not signal the Postgres (PID " + pid + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not remove " + file, e);
        }
    }
}
