package io.qawk.orchestrator.testkit.reliability;

import io.qawk.orchestrator.testkit.HawkbitServer;
import io.qawk.orchestrator.testkit.ProcessFreeze;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The service as a separate {@code java -jar <qawk.app.jar>} process on its own loopback port, against a shared
 * Postgres (or, {@link #startDev}, the demo module's dev start with its embedded one in a given folder) and hawkBit. {@link #kill()} is {@link Process#destroyForcibly()}: SIGKILL on Linux, like {@code kill -9}
 * (no shutdown hook, no graceful close of anything). Every started process is also killed by a JVM shutdown hook.
 */
public final class ServiceProcess implements AutoCloseable {

    public static final String ADMIN_PASSWORD = "rel-admin-pw";
    public static final String VIEWER_PASSWORD = "rel-viewer-pw";
    static final Duration START_DEADLINE = Duration.ofSeconds(Long.getLong("qawk.reliability.start-seconds", 180));

    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly),
                "reliability-service-kill"));
    }

    private final String name;
    private final String jdbcUrl;
    private final Hawkbit hawkbit;
    private final List<String> jvmOptions;
    private final Map<String, String> extraEnv;
    /** The jar this process runs; null: {@link #appJar()}, the version under test. */
    private final Path jar;

    /** Where the service finds hawkBit. */
    public record Hawkbit(String url, String user, String password, String tenant) {
        public static Hawkbit of(HawkbitServer server) {
            return new Hawkbit(server.baseUrl(), server.user(), server.password(), server.tenant());
        }

        /** The same hawkBit and account reached at {@code url}, e.g. a proxy in front of it. */
        public Hawkbit at(String url) {
            return new Hawkbit(url, user, password, tenant);
        }
    }

    /** JVM options of the reliability tests' service processes: small heap, quick start. */
    static final List<String> RELIABILITY_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private final int port;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;
    private ProcessFreeze frozen;
    private int starts;
    private Duration lastStartTime = Duration.ZERO;
    private final List<Duration> startTimes = new ArrayList<>();

    private ServiceProcess(String name, String jdbcUrl, Hawkbit hawkbit, List<String> jvmOptions,
                           Map<String, String> extraEnv, Path jar) {
        this.jar = jar;
        this.name = name;
        this.jdbcUrl = jdbcUrl;
        this.hawkbit = hawkbit;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.extraEnv = Map.copyOf(extraEnv);
        this.port = freePort();
        this.log = ReliabilityPostgres.outputDir().resolve(name + ".log");
    }

    /** Starts a service process and waits until it is live. */
    public static ServiceProcess start(String name, String jdbcUrl, HawkbitServer hawkbit) {
        return start(name, jdbcUrl, Hawkbit.of(hawkbit));
    }

    /**
     * Starts a service process that reaches hawkBit as {@code hawkbit} says (for instance through a proxy:
     * {@code Hawkbit.of(server).at(proxyUrl)}) and waits until it is live.
     */
    public static ServiceProcess start(String name, String jdbcUrl, Hawkbit hawkbit) {
        return start(name, jdbcUrl, hawkbit, RELIABILITY_JVM, Map.of());
    }

    /** The main class of the development start (the demo module), run instead of the packaged jar alone. */
    public static final String DEV_START = "io.qawk.orchestrator.demo.StartDev";

    /**
     * Starts the development start ({@value #DEV_START}: the packaged service next to an embedded Postgres with its
     * data in {@code dataDir}, {@code QAWK_DEMO_DIR}) against this hawkBit, with {@code classpath} (the demo module's);
     * waits until the service is live. {@link #kill()} then kills the dev start's JVM, which holds the Postgres.
     */
    public static ServiceProcess startDev(String name, Path dataDir, HawkbitServer hawkbit, String classpath) {
        return start(name, null, Hawkbit.of(hawkbit), List.of("-Xmx128m", "-XX:+UseSerialGC",
                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager", "-cp", classpath),
                Map.of("QAWK_DEMO_DIR", dataDir.toAbsolutePath().toString()));
    }

    /**
     * Starts a service process with these JVM options and extra environment (over the reliability tests' settings)
     * and waits until it is live.
     */
    public static ServiceProcess start(String name, String jdbcUrl, Hawkbit hawkbit, List<String> jvmOptions,
                                       Map<String, String> extraEnv) {
        return start(name, jdbcUrl, hawkbit, jvmOptions, extraEnv, null);
    }

    /**
     * Starts another build of the service ({@code jar}, e.g. the previous version, {@link PreviousVersion}) with the
     * reliability tests' settings and waits until it is live.
     */
    public static ServiceProcess startJar(String name, String jdbcUrl, HawkbitServer hawkbit, Path jar) {
        return start(name, jdbcUrl, Hawkbit.of(hawkbit), RELIABILITY_JVM, Map.of(), jar);
    }

    private static ServiceProcess start(String name, String jdbcUrl, Hawkbit hawkbit, List<String> jvmOptions,
                                        Map<String, String> extraEnv, Path jar) {
        ServiceProcess p = new ServiceProcess(name, jdbcUrl, hawkbit, jvmOptions, extraEnv, jar);
        try {
            Files.deleteIfExists(p.log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        p.launch();
        return p;
    }

    public static Path appJar() {
        String jar = System.getProperty("qawk.app.jar", "target/quarkus-app/quarkus-run.jar");
        Path p = Path.of(jar).toAbsolutePath();
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("the application jar " + p + " does not exist: run `mvn package` first");
        }
        return p;
    }

    private synchronized void launch() {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>();
        cmd.add(javaBin);
        cmd.addAll(jvmOptions);
        cmd.add("-Dqawk.reliability.name=" + name);
        if (jvmOptions.contains("-cp")) { // the dev start: its main class runs the packaged service itself
            cmd.addAll(List.of("-Dqawk.app.jar=" + appJar(), DEV_START));
        } else {
            cmd.addAll(List.of("-jar", (jar != null ? jar : appJar()).toString()));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        if (jdbcUrl != null) {
            env.put("QUARKUS_DATASOURCE_JDBC_URL", jdbcUrl);
            env.put("QUARKUS_DATASOURCE_USERNAME", "postgres");
            env.put("QUARKUS_DATASOURCE_PASSWORD", "postgres");
        } else {
            // the dev start: whatever the test JVM's environment says, its own embedded database
            List.of("QAWK_DB_URL", "QAWK_DB_USER", "QAWK_DB_PASSWORD", "QUARKUS_DATASOURCE_JDBC_URL",
                    "QUARKUS_DATASOURCE_USERNAME", "QUARKUS_DATASOURCE_PASSWORD").forEach(env::remove);
        }
        env.put("QAWK_HAWKBIT_URL", hawkbit.url());
        env.put("QAWK_HAWKBIT_USER", hawkbit.user());
        env.put("QAWK_HAWKBIT_PASSWORD", hawkbit.password());
        env.put("QAWK_HAWKBIT_TENANT", hawkbit.tenant());
        env.put("QAWK_ADMIN_PASSWORD", ADMIN_PASSWORD);
        env.put("QAWK_VIEWER_PASSWORD", VIEWER_PASSWORD);
        env.put("QUARKUS_HTTP_PORT", String.valueOf(port));
        env.put("QAWK_PORT", String.valueOf(port));
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("QAWK_ENGINE_INTERVAL", "1s");
        env.put("QAWK_ENGINE_INITIAL_DELAY", "1s");
        env.put("QAWK_INVENTORY_SYNC_INTERVAL", "2s");
        env.put("QAWK_INVENTORY_INITIAL_DELAY", "1s");
        env.putAll(extraEnv);
        pb.directory(ReliabilityPostgres.outputDir().toFile());
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        starts++;
        try {
            Files.writeString(log, "\n===== start #" + starts + " of " + name + " on port " + port + " at " + Instant.now()
                    + " =====\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            Instant t0 = Instant.now();
            process = pb.start();
            RUNNING.add(process);
            awaitLive(t0);
            lastStartTime = Duration.between(t0, Instant.now());
            startTimes.add(lastStartTime);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name, e);
        }
    }

    private void awaitLive(Instant t0) {
        Instant deadline = t0.plus(START_DEADLINE);
        HttpRequest live = HttpRequest.newBuilder(URI.create(baseUrl() + "/q/health/live")).timeout(Duration.ofSeconds(3))
                .GET().build();
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " while starting; log: "
                        + log + "\n" + tail(40));
            }
            try {
                if (http.send(live, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            pollPause();
        }
        process.destroyForcibly();
        throw new IllegalStateException(name + " was not live within " + START_DEADLINE + "; log: " + log + "\n" + tail(40));
    }

    /** Short pause between two health probes of a starting process (a poll interval, not a wait for a condition). */
    private static void pollPause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** kill -9: SIGKILL, then reaps the process. */
    public synchronized void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        RUNNING.remove(process);
        if (frozen != null) { // SIGKILL ends a stopped process too; nothing is left to thaw
            frozen.close();
            frozen = null;
        }
        appendMarker("===== killed (SIGKILL) at " + Instant.now() + " =====");
    }

    /**
     * kill -9 of the service's own child processes (not the ones that left its tree, such as a postmaster started
     * through {@code pg_ctl}), then of the service: as if everything the JVM could have done about its children on
     * its death were gone too.
     */
    public synchronized void killWithChildren() {
        if (process == null) {
            return;
        }
        List<ProcessHandle> children = process.descendants().toList();
        List<String> described = children.stream().map(c -> c.pid() + " " + c.info().command().orElse("?")).toList();
        // all at once, children first: waiting in between would let the parent see a child die and react (the dev
        // start stops its Postgres when its service ends), which a crash of the whole machine would not allow
        children.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        children.forEach(c -> c.onExit().completeOnTimeout(c, 10, TimeUnit.SECONDS).join());
        appendMarker("===== killed (SIGKILL) " + children.size() + " child process(es) " + described + " =====");
        kill();
    }

    /** The process's descendants now (for the dev start: the service, the watchdog, the lifeline). */
    public synchronized List<ProcessHandle> children() {
        return process == null ? List.of() : process.descendants().toList();
    }

    /** SIGSTOP: the process stands still where it is (its open connections stay open) until {@link #thaw()}. */
    public synchronized void freeze() {
        frozen = frozen();
    }

    /** SIGCONT after {@link #freeze()}. */
    public synchronized void thaw() {
        if (frozen != null) {
            frozen.close();
            frozen = null;
        }
    }

    /**
     * SIGSTOP, as a handle whose {@link ProcessFreeze#close()} sends SIGCONT: for try-with-resources, so that a
     * failing test never leaves the service frozen.
     */
    public synchronized ProcessFreeze frozen() {
        if (process == null) {
            throw new IllegalStateException(name + " was never started");
        }
        return ProcessFreeze.freeze(process.toHandle());
    }

    /** kill -9 (if running) and start again on the same port; returns when live. */
    public synchronized void restart() {
        if (process != null && process.isAlive()) {
            kill();
        }
        launch();
    }

    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    public int starts() {
        return starts;
    }

    public List<Duration> startTimes() {
        return List.copyOf(startTimes);
    }

    public Duration lastStartTime() {
        return lastStartTime;
    }

    public long pid() {
        return process == null ? -1 : process.pid();
    }

    public QawkApi api() {
        return new QawkApi(baseUrl());
    }

    /** Lines of the log containing {@code text}. */
    public long logLinesContaining(String text) {
        try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.contains(text)).count();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }

    public String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private void appendMarker(String text) {
        try {
            Files.writeString(log, "\n" + text + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        } catch (IOException ignored) {
            // the marker is a help for reading the log only
        }
    }

    @Override
    public void close() {
        kill();
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return name + "(pid " + pid() + ", " + baseUrl() + ")";
    }
}
