package io.qawk.orchestrator.testkit.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A real embedded Postgres of its own that a test stops (as a crash or an operator would) and starts again on the same
 * port with the same data, for the service under test to lose its database for a while. Its control is published
 * JVM-wide ({@link #control}) as a JDK {@link Consumer} ({@code "stop"}, {@code "start"}) in the system properties:
 * Quarkus loads the test kit in a class loader of its own for the application, apart from the test's.
 */
public final class RestartablePostgres {

    /** The system property that holds the control of the running one. */
    public static final String CONTROL = "qawk.test.restartable-postgres";

    private final Path dataDir;
    private final int port;
    private EmbeddedPostgres pg;

    private RestartablePostgres(Path dataDir, int port) {
        this.dataDir = dataDir;
        this.port = port;
    }

    /** Starts one in a fresh folder below {@code parent} on a free 127.0.0.1 port and publishes its control. */
    public static RestartablePostgres start(Path parent) {
        try {
            Files.createDirectories(parent);
            RestartablePostgres p = new RestartablePostgres(Files.createTempDirectory(parent, "pg-"), freePort());
            p.up();
            System.getProperties().put(CONTROL, (Consumer<String>) p::command);
            Runtime.getRuntime().addShutdownHook(new Thread(p::down, "restartable-postgres-stop"));
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start Postgres", e);
        }
    }

    /** {@code "stop"} or {@code "start"} the one this JVM runs, from any class loader. */
    @SuppressWarnings("unchecked")
    public static void control(String command) {
        Object c = System.getProperties().get(CONTROL);
        if (!(c instanceof Consumer<?>)) {
            throw new IllegalStateException("no restartable Postgres runs in this JVM");
        }
        ((Consumer<String>) c).accept(command);
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    private void command(String command) {
        switch (command) {
            case "stop" -> down();
            case "start" -> up();
            default -> throw new IllegalArgumentException("stop or start, not " + command);
        }
    }

    private synchronized void up() {
        if (pg != null) {
            return;
        }
        try {
            pg = EmbeddedPostgres.builder().setDataDirectory(dataDir).setCleanDataDirectory(false).setPort(port)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start Postgres in " + dataDir, e);
        }
    }

    /** Stops it (pg_ctl, fast: open connections are cut), keeping its data. */
    private synchronized void down() {
        if (pg == null) {
            return;
        }
        try {
            pg.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop Postgres in " + dataDir, e);
        } finally {
            pg = null;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        }
    }
}
