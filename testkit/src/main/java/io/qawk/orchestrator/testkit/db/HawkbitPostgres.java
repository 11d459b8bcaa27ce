package io.qawk.orchestrator.testkit.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jboss.logging.Logger;
import org.postgresql.Driver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The database of one test hawkBit that runs on Postgres instead of its in-memory H2: an embedded Postgres of its own
 * (the zonky binaries the service's tests use), in a fresh folder under {@code parentDir}, deleted when it stops.
 *
 * <p>Its own server, not a database inside the service's: production runs hawkBit and Qawk on separate databases,
 * and a benchmark should not measure one competing with the other for locks and buffers. The server does not outlive
 * the JVM that started it: {@link PostmasterWatchdog} stops it however the JVM dies, and a start removes the folders
 * of earlier, dead runs (a folder a live JVM still uses is left alone, see {@link LeftoverPostmaster}).
 *
 * <p>hawkBit 0.3.0M7 supports PostgreSQL (its {@code db/migration/POSTGRESQL} Flyway scripts, picked by
 * {@code spring.flyway.sql-migration-suffixes=${spring.jpa.database}.sql}); the settings are those of hawkBit's own
 * {@code application-postgresql.properties}. The test hawkBit's jar holds no Postgres driver (only H2): the launcher
 * puts the one on this JVM's class path ({@link #driverJar()}, pgjdbc targets Java 8) next to the jar with Spring
 * Boot's {@code PropertiesLauncher} and {@code loader.path}, so the jar need not be rebuilt.
 */
public final class HawkbitPostgres implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(HawkbitPostgres.class);
    private static final String FOLDER_PREFIX = "hawkbit-pg-";

    private final EmbeddedPostgres postgres;
    private final Path dataDir;
    private final PostmasterWatchdog watchdog;
    private boolean closed;

    private HawkbitPostgres(EmbeddedPostgres postgres, Path dataDir, PostmasterWatchdog watchdog) {
        this.postgres = postgres;
        this.dataDir = dataDir;
        this.watchdog = watchdog;
    }

    /** Starts a fresh, empty Postgres with its data in a new folder below {@code parentDir}. */
    public static HawkbitPostgres start(Path parentDir) {
        try {
            Files.createDirectories(parentDir);
            removeDeadFolders(parentDir);
            Path dir = Files.createTempDirectory(parentDir, FOLDER_PREFIX);
            long t0 = System.nanoTime();
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setDataDirectory(dir)
                    .setCleanDataDirectory(true)
                    .start();
            PostmasterWatchdog dog = PostmasterWatchdog.start(dir).orElse(null);
            LOG.infof("Started hawkBit's embedded Postgres on 127.0.0.1:%d in %d ms (data in %s)", pg.getPort(),
                    (System.nanoTime() - t0) / 1_000_000L, dir);
            return new HawkbitPostgres(pg, dir, dog);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start an embedded Postgres for hawkBit in " + parentDir, e);
        }
    }

    public int port() {
        return postgres.getPort();
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/postgres";
    }

    /** The Spring Boot arguments that put hawkBit on this database. */
    public List<String> springArgs() {
        return List.of(
                "--spring.jpa.database=POSTGRESQL",
                "--spring.datasource.url=" + jdbcUrl(),
                "--spring.datasource.username=" + EmbeddedDatabase.USER,
                "--spring.datasource.password=",
                "--spring.datasource.driverClassName=org.postgresql.Driver");
    }

    /** The jar (or classes folder) of the Postgres JDBC driver this JVM loads. */
    public static Path driverJar() {
        try {
            return Path.of(Driver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot find the Postgres JDBC driver on the class path", e);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            postgres.close();
        } catch (IOException e) {
            LOG.warnf("Could not stop hawkBit's embedded Postgres in %s cleanly: %s", dataDir, e.getMessage());
        }
        if (watchdog != null) {
            watchdog.cancel();
        }
    }

    /** Folders of earlier runs whose JVM is gone: their postmaster (if any) is stopped, then the folder deleted. */
    private static void removeDeadFolders(Path parentDir) throws IOException {
        List<Path> folders;
        try (Stream<Path> s = Files.list(parentDir)) {
            folders = s.filter(p -> p.getFileName().toString().startsWith(FOLDER_PREFIX)).toList();
        }
        Instant young = Instant.now().minus(Duration.ofMinutes(2));
        for (Path dir : folders) {
            try {
                if (Files.getLastModifiedTime(dir).toInstant().isAfter(young)) {
                    continue; // another JVM may be about to start a server in it
                }
                LeftoverPostmaster.clear(dir, EmbeddedDatabase.LEFTOVER_STOP_DEADLINE);
                if (!heldByLiveJvm(dir)) {
                    deleteRecursively(dir);
                }
            } catch (IllegalStateException | IOException e) {
                LOG.debugf("Leaving %s: %s", dir, e.getMessage()); // another live JVM's server
            }
        }
    }

    /** Whether a live JVM holds zonky's starter lock on the folder (it is starting or running a server there). */
    private static boolean heldByLiveJvm(Path dir) throws IOException {
        Path lock = dir.resolve(LeftoverPostmaster.STARTER_LOCK);
        if (!Files.exists(lock)) {
            return false;
        }
        try (var ch = FileChannel.open(lock, StandardOpenOption.WRITE);
                var l = ch.tryLock()) {
            return l == null;
        } catch (OverlappingFileLockException e) {
            return true; // this JVM holds it
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
