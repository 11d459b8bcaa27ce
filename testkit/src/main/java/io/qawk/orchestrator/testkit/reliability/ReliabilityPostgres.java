package io.qawk.orchestrator.testkit.reliability;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;

/**
 * One Postgres for the service processes of a test class, in a fresh folder below {@code target/reliability}, on a
 * free port. Closed by the test (and, should the test JVM be stopped, by a shutdown hook).
 */
public final class ReliabilityPostgres implements AutoCloseable {

    private final EmbeddedPostgres pg;
    private final Path dir;
    private final Thread hook;

    private ReliabilityPostgres(EmbeddedPostgres pg, Path dir) {
        this.pg = pg;
        this.dir = dir;
        this.hook = new Thread(this::stop, "reliability-postgres-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    public static ReliabilityPostgres start(String name) {
        try {
            Path dir = Files.createTempDirectory(outputDir(), "pg-" + name + "-");
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setDataDirectory(dir)
                    .setCleanDataDirectory(true)
                    .setPort(ServiceProcess.freePort())
                    .setServerConfig("max_connections", "200")
                    .start();
            return new ReliabilityPostgres(pg, dir);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start Postgres", e);
        }
    }

    /** {@code target/reliability} (created). */
    public static Path outputDir() {
        Path base = Path.of(System.getProperty("basedir", "."), "target", "reliability").toAbsolutePath().normalize();
        try {
            Files.createDirectories(base);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return base;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/postgres";
    }

    /** A connection for the test's own observation (when to kill); never used to change anything. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), "postgres", "postgres");
    }

    private synchronized void stop() {
        try {
            pg.close();
        } catch (IOException | RuntimeException e) {
            // already stopped
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // leftovers under target/ are harmless
        }
    }
}
