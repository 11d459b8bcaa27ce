package io.qawk.orchestrator.testkit.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A real embedded Postgres of its own that a test stops (as a crash or an operator would) and starts again on the same
 * port with the same data, for the service under test to lose its database for a while. One per JVM, held by this
 * class as the JVM's own class loader has it: Quarkus loads the test kit in a class loader of its own for the
 * application, apart from the test's, so {@link #start} and {@link #control} go to that copy (as the hawkBit proxy does).
 */
public final class RestartablePostgres {

    private static RestartablePostgres running;

    private final Path dataDir;
    private final int port;
    private EmbeddedPostgres pg;

    private RestartablePostgres(Path dataDir, int port) {
        this.dataDir = dataDir;
        this.port = port;
    }

    /** Starts the JVM's one (once) in a fresh folder below {@code parent} on a free port; returns its JDBC URL. */
    public static String start(Path parent) {
        Object url = onSystemLoader("start", Path.class, parent);
        if (url != NOT_DELEGATED) {
            return (String) url;
        }
        synchronized (RestartablePostgres.class) {
            if (running == null) {
                try {
                    Files.createDirectories(parent);
                    RestartablePostgres p = new RestartablePostgres(Files.createTempDirectory(parent, "pg-"),
                            freePort());
                    p.up();
                    Runtime.getRuntime().addShutdownHook(new Thread(p::down, "restartable-postgres-stop"));
                    running = p;
                } catch (IOException e) {
                    throw new UncheckedIOException("could not start Postgres", e);
                }
            }
            return running.jdbcUrl();
        }
    }

    /** {@code "stop"} or {@code "start"} the one this JVM runs, from any class loader. */
    public static void control(String command) {
        if (onSystemLoader("control", String.class, command) != NOT_DELEGATED) {
            return;
        }
        synchronized (RestartablePostgres.class) {
            if (running == null) {
                throw new IllegalStateException("no restartable Postgres runs in this JVM");
            }
            running.command(command);
        }
    }

    private static final Object NOT_DELEGATED = new Object();

    /** The same static method of this class as the JVM's own class loader has it; NOT_DELEGATED when this is it. */
    private static Object onSystemLoader(String method, Class<?> type, Object arg) {
        ClassLoader system = ClassLoader.getSystemClassLoader();
        if (RestartablePostgres.class.getClassLoader() == system) {
            return NOT_DELEGATED;
        }
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(system);
        try {
            Object r = Class.forName(RestartablePostgres.class.getName(), true, system).getMethod(method, type)
                    .invoke(null, arg);
            return r == null ? "" : r;
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the test kit is not on the JVM's class path", e);
        } finally {
            thread.setContextClassLoader(before);
        }
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
