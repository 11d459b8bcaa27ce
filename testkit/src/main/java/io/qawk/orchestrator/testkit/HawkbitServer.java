package io.qawk.orchestrator.testkit;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.jboss.logging.Logger;

import io.qawk.orchestrator.testkit.db.HawkbitPostgres;

/**
 * A real Eclipse hawkBit 0.3.0M7 update server (Management API + DDI) run as a child {@code java} process, for tests
 * and the demo mode.
 * <p>
 * The server is the small Spring Boot project in {@code <projectDir>/testkit/hawkbit-server} (the checkout's root is the project directory, see {@link #projectDir()}). Its executable jar is
 * expected at {@code <projectDir>/target/hawkbit-server/hawkbit-server.jar}; when it is missing (or older than the
 * project's sources) it is built with Maven ({@code MAVEN_CMD} env or {@code mvn} on the PATH), under a file lock so
 * that concurrent JVMs build it only once. The build log goes to {@code target/hawkbit-server/build.log}.
 * <p>
 * Each start picks a free loopback port and a random Management API password (passed to the child through its
 * environment, never logged, never written to disk), waits until {@code GET /rest/v1/targets} answers 200 and destroys
 * the child on {@link #close()} or JVM exit.
 * <p>
 * The database is hawkBit's in-memory H2 by default (fast to start, what the test suite uses), or with
 * {@link Builder#database(Database) database(POSTGRES)} an embedded Postgres of its own ({@link HawkbitPostgres}),
 * started before hawkBit and stopped after it: production hawkBits run on a real database, and the benchmarks do.
 */
public final class HawkbitServer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(HawkbitServer.class);

    public static final String JAR_NAME = "hawkbit-server.jar";
    public static final String DEFAULT_USER = "qawk-admin";
    /**
     * A second Management API user, with the same password: a colleague who may create, start and pause rollouts but
     * not approve them ({@code APPROVE_ROLLOUT} is the one permission missing), so that with the tenant's rollout
     * approval on, the rollouts they create wait for approval (hawkBit lets a creator with that permission skip it).
     */
    public static final String COLLEAGUE = "colleague";
    static final String COLLEAGUE_PERMISSIONS = "READ_TARGET,READ_TARGET_SECURITY_TOKEN,UPDATE_TARGET,CREATE_TARGET,"
            + "DELETE_TARGET,READ_REPOSITORY,UPDATE_REPOSITORY,CREATE_REPOSITORY,DELETE_REPOSITORY,"
            + "DOWNLOAD_REPOSITORY_ARTIFACT,READ_ROLLOUT,CREATE_ROLLOUT,UPDATE_ROLLOUT,DELETE_ROLLOUT,HANDLE_ROLLOUT";
    /**
     * How long a start may take: 180 s, or longer with {@code -Dqawk.testkit.hawkbit-start-seconds=600} on a machine
     * shared by many builds at once (never shorter).
     */
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(Math.max(180,
            Long.getLong("qawk.testkit.hawkbit-start-seconds", 180)));
    public static final Duration DEFAULT_BUILD_TIMEOUT = Duration.ofMinutes(15);

    private static final Object BUILD_MONITOR = new Object();
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The child this object started, or null for one {@link #adopt adopted} from an earlier load of this class. */
    private final Process process;
    private final ProcessHandle handle;
    private final int port;
    private final String user;
    private final String password;
    private final Path logFile;
    private final HawkbitPostgres postgres;
    private final Thread shutdownHook;
    private volatile boolean closed;

    private HawkbitServer(Process process, int port, String user, String password, Path logFile,
                          HawkbitPostgres postgres) {
        this.process = process;
        this.handle = process.toHandle();
        this.port = port;
        this.user = user;
        this.password = password;
        this.logFile = logFile;
        this.postgres = postgres;
        this.shutdownHook = new Thread(this::destroyQuietly, "hawkbit-server-shutdown-" + port);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    private HawkbitServer(ProcessHandle handle, int port, String user, String password, Path logFile) {
        this.process = null;
        this.handle = handle;
        this.port = port;
        this.user = user;
        this.password = password;
        this.logFile = logFile;
        this.postgres = null; // only hawkBits on H2 are adopted (SharedHawkbit)
        this.shutdownHook = null; // the hook of the load that started it stops it when the JVM exits
    }

    /**
     * A server this JVM already runs, started by an earlier load of this class (a test framework that loads the test
     * kit afresh for every application it starts), if its process is still alive. It is stopped by {@link #close()}
     * or by the shutdown hook of the load that started it.
     */
    static Optional<HawkbitServer> adopt(long pid, int port, String user, String password, Path logFile) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .filter(h -> h.info().commandLine().map(c -> c.contains(JAR_NAME)).orElse(true)) // not a reused pid
                .map(h -> new HawkbitServer(h, port, user, password, logFile));
    }

    /** Builds the jar if needed and starts a hawkBit with the defaults (user {@value #DEFAULT_USER}, 180 s). */
    public static HawkbitServer start(Path projectDir) {
        return builder(projectDir).start();
    }

    public static Builder builder(Path projectDir) {
        return new Builder(projectDir);
    }

    /** e.g. {@code http://127.0.0.1:41234} (no trailing slash); Management API under {@code /rest/v1}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /** The hawkBit tenant: always {@code DEFAULT} on this server. */
    public String tenant() {
        return "DEFAULT";
    }

    public Path logFile() {
        return logFile;
    }

    public boolean isAlive() {
        return handle.isAlive();
    }

    public long pid() {
        return handle.pid();
    }

    /**
     * Freezes this hawkBit (SIGSTOP): its port still accepts connections, nothing answers, every call of the service
     * and poll of a device hangs until {@link ProcessFreeze#close()} (SIGCONT). Close it in a {@code finally} (or
     * try-with-resources): the hawkBit is shared by every test class of the JVM ({@link SharedHawkbit}).
     */
    public ProcessFreeze freeze() {
        return ProcessFreeze.freeze(handle);
    }

    /** The database hawkBit runs on. */
    public Database database() {
        return postgres == null ? Database.H2 : Database.POSTGRES;
    }

    /** The JDBC URL of hawkBit's Postgres (user {@code postgres}, no password); empty on H2. */
    public Optional<String> databaseUrl() {
        return Optional.ofNullable(postgres).map(HawkbitPostgres::jdbcUrl);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        destroyQuietly();
        try {
            if (shutdownHook != null) {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            }
        } catch (IllegalStateException e) {
            // JVM already shutting down
        }
        LOG.infof("hawkBit on port %d stopped", port);
    }

    @Override
    public String toString() {
        return "HawkbitServer[" + baseUrl() + ", user=" + user + ", pid=" + handle.pid() + "]";
    }

    private void destroyQuietly() {
        try {
            destroyProcess();
        } finally {
            if (postgres != null) {
                postgres.close(); // after hawkBit, which would otherwise log its lost connections
            }
        }
    }

    private void destroyProcess() {
        if (!handle.isAlive()) {
            return;
        }
        handle.destroy();
        if (!exited(20)) {
            handle.destroyForcibly();
            exited(10);
        }
    }

    private boolean exited(int seconds) {
        try {
            handle.onExit().get(seconds, TimeUnit.SECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return !handle.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !handle.isAlive();
        }
    }

    // ------------------------------------------------------------------------------------------------------------

    /** Where hawkBit keeps its data. */
    public enum Database {
        /** hawkBit's in-memory H2 (MySQL mode), gone with the process; the default. */
        H2,
        /** An embedded Postgres of its own, in a fresh folder, deleted when the server stops. */
        POSTGRES;

        /** {@code h2} or {@code postgres} (any case); blank means H2. */
        public static Database parse(String value) {
            if (value == null || value.isBlank()) {
                return H2;
            }
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "h2" -> H2;
                case "postgres", "postgresql" -> POSTGRES;
                default -> throw new IllegalArgumentException("hawkBit database '" + value
                        + "' is not one of h2, postgres");
            };
        }
    }

    public static final class Builder {
        private final Path projectDir;
        private String user = DEFAULT_USER;
        private Duration startTimeout = DEFAULT_START_TIMEOUT;
        private Duration buildTimeout = DEFAULT_BUILD_TIMEOUT;
        private Database database = Database.H2;
        private final List<String> extraArgs = new ArrayList<>();

        private Builder(Path projectDir) {
            this.projectDir = Objects.requireNonNull(projectDir, "projectDir").toAbsolutePath().normalize();
        }

        public Builder user(String user) {
            this.user = Objects.requireNonNull(user);
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            this.startTimeout = Objects.requireNonNull(timeout);
            return this;
        }

        public Builder buildTimeout(Duration timeout) {
            this.buildTimeout = Objects.requireNonNull(timeout);
            return this;
        }

        /** The database hawkBit runs on (default {@link Database#H2}). */
        public Builder database(Database database) {
            this.database = Objects.requireNonNull(database);
            return this;
        }

        /** Extra Spring Boot arguments, e.g. {@code --hawkbit.controller.pollingTime=00:00:05}. */
        public Builder arg(String springArg) {
            extraArgs.add(Objects.requireNonNull(springArg));
            return this;
        }

        public HawkbitServer start() {
            Path jar = ensureJar(projectDir, buildTimeout);
            IllegalStateException last = null;
            for (int attempt = 1; attempt <= 3; attempt++) {
                try {
                    return launch(jar, this);
                } catch (PortClashException e) {
                    // the free port was taken between probing and binding: try another one
                    LOG.warnf("hawkBit could not bind port %d, retrying on another port", e.port);
                    last = e;
                }
            }
            throw last;
        }
    }

    private static final class PortClashException extends IllegalStateException {
        final int port;

        PortClashException(int port, String message) {
            super(message);
            this.port = port;
        }
    }

    // ---------------------------------------------------------------------------------------------- build ------

    /** The hawkBit server's sources, relative to the project directory. */
    public static final String SOURCES = "testkit/hawkbit-server";

    /**
     * The checkout's root: the system property {@code qawk.project.dir} (the build sets it to Maven's
     * multi-module directory), else the working directory or the nearest parent of it holding {@value #SOURCES}.
     */
    public static Path projectDir() {
        String configured = System.getProperty("qawk.project.dir");
        if (configured != null && !configured.isBlank() && Files.isDirectory(Path.of(configured, SOURCES))) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve(SOURCES))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find the project directory (with " + SOURCES
                + "); set -Dqawk.project.dir=<checkout>");
    }

    /** Directory holding the jar and the logs: {@code <projectDir>/target/hawkbit-server}. */
    public static Path serverDir(Path projectDir) {
        return projectDir.toAbsolutePath().normalize().resolve("target").resolve("hawkbit-server");
    }

    public static Path jarPath(Path projectDir) {
        return serverDir(projectDir).resolve(JAR_NAME);
    }

    /**
     * Returns the executable hawkBit jar, building it first when it is missing or older than any file of
     * {@code testkit/hawkbit-server}. Safe to call from several threads and JVMs at once.
     */
    public static Path ensureJar(Path projectDir, Duration buildTimeout) {
        Path dir = serverDir(projectDir);
        Path jar = dir.resolve(JAR_NAME);
        Path sources = projectDir.toAbsolutePath().normalize().resolve(SOURCES);
        synchronized (BUILD_MONITOR) { // FileChannel locks are per JVM, not per thread
            try {
                Files.createDirectories(dir);
                try (FileChannel ch = FileChannel.open(dir.resolve(".build.lock"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                        FileLock lock = ch.lock()) {
                    if (isUpToDate(jar, sources)) {
                        return jar;
                    }
                    build(sources, dir, jar, buildTimeout);
                    return jar;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot prepare " + jar, e);
            }
        }
    }

    private static boolean isUpToDate(Path jar, Path sources) throws IOException {
        if (!Files.isRegularFile(jar) || Files.size(jar) == 0) {
            return false;
        }
        if (!Files.isDirectory(sources)) {
            return true; // no sources to rebuild from: use what is there
        }
        FileTime jarTime = Files.getLastModifiedTime(jar);
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> !p.toString().contains("/target/"))
                    .noneMatch(p -> {
                        try {
                            return Files.getLastModifiedTime(p).compareTo(jarTime) > 0;
                        } catch (IOException e) {
                            return true;
                        }
                    });
        }
    }

    private static void build(Path sources, Path dir, Path jar, Duration timeout) throws IOException {
        Path pom = sources.resolve("pom.xml");
        if (!Files.isRegularFile(pom)) {
            throw new IllegalStateException("hawkBit jar " + jar + " is missing and there is no " + pom + " to build it");
        }
        Path buildLog = dir.resolve("build.log");
        List<String> cmd = new ArrayList<>(mavenCommand());
        cmd.addAll(List.of("-B", "-q", "-f", pom.toString(), "package", "-DskipTests",
                "-Dhawkbit.build.dir=" + dir));
        LOG.infof("building hawkBit server jar (first time: downloads from Maven Central), log: %s", buildLog);
        long t0 = System.nanoTime();
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(sources.toFile())
                .redirectErrorStream(true)
                .redirectOutput(buildLog.toFile());
        pb.environment().putIfAbsent("JAVA_HOME", System.getProperty("java.home"));
        Files.deleteIfExists(jar);
        Process p = pb.start();
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("building the hawkBit jar took longer than " + timeout
                        + "; see " + buildLog + "\n" + tail(buildLog, 30));
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the hawkBit jar", e);
        }
        if (p.exitValue() != 0 || !Files.isRegularFile(jar)) {
            throw new IllegalStateException("building the hawkBit jar failed (mvn exit " + p.exitValue()
                    + "); command: " + String.join(" ", cmd) + "; see " + buildLog + "\n" + tail(buildLog, 40));
        }
        LOG.infof("hawkBit server jar built in %d s: %s", (System.nanoTime() - t0) / 1_000_000_000L, jar);
    }

    private static List<String> mavenCommand() {
        String env = System.getenv("MAVEN_CMD");
        if (env != null && !env.isBlank()) {
            return List.of(env.trim().split("\\s+"));
        }
        boolean windows = System.getProperty("os.name", "").toLowerCase().contains("win");
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(File.pathSeparator)) {
                for (String name : windows ? List.of("mvn.cmd", "mvn.bat", "mvn") : List.of("mvn")) {
                    Path candidate = Path.of(d, name);
                    if (Files.isExecutable(candidate)) {
                        return List.of(candidate.toString());
                    }
                }
            }
        }
        String mavenHome = Optional.ofNullable(System.getProperty("maven.home")).orElse(System.getenv("MAVEN_HOME"));
        if (mavenHome != null) {
            Path candidate = Path.of(mavenHome, "bin", windows ? "mvn.cmd" : "mvn");
            if (Files.isExecutable(candidate)) {
                return List.of(candidate.toString());
            }
        }
        throw new IllegalStateException("cannot build the hawkBit jar: no 'mvn' on the PATH and MAVEN_CMD is not set");
    }

    // --------------------------------------------------------------------------------------------- launch ------

    private static HawkbitServer launch(Path jar, Builder b) {
        HawkbitPostgres postgres = b.database == Database.POSTGRES
                ? HawkbitPostgres.start(jar.getParent().resolve("postgres")) : null;
        try {
            return launch(jar, b, postgres);
        } catch (RuntimeException e) {
            if (postgres != null) {
                postgres.close();
            }
            throw e;
        }
    }

    private static HawkbitServer launch(Path jar, Builder b, HawkbitPostgres postgres) {
        int port = freePort();
        String password = randomPassword();
        Path logFile = jar.getParent().resolve("hawkbit-" + port + ".log");
        List<String> cmd = new ArrayList<>(List.of(javaExecutable(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx512m",
                "-Djava.net.preferIPv4Stack=true"));
        if (postgres == null) {
            cmd.addAll(List.of("-jar", jar.toString()));
        } else {
            // the jar holds no Postgres driver: Spring Boot's PropertiesLauncher adds this JVM's to its class path
            cmd.addAll(List.of("-Dloader.path=" + HawkbitPostgres.driverJar(),
                    "-Dloader.main=io.qawk.it.hawkbit.HawkbitServerApplication",
                    "-cp", jar.toString(), "org.springframework.boot.loader.PropertiesLauncher"));
        }
        cmd.addAll(List.of("--server.address=127.0.0.1", "--server.port=" + port));
        if (postgres != null) {
            cmd.addAll(postgres.springArgs());
        }
        cmd.addAll(b.extraArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(jar.getParent().toFile())
                .redirectErrorStream(true)
                .redirectOutput(logFile.toFile());
        // credentials through the environment (Spring relaxed binding): not visible in `ps`, not on disk
        Map<String, String> env = pb.environment();
        env.put("SPRING_SECURITY_USER_NAME", b.user);
        env.put("SPRING_SECURITY_USER_PASSWORD", "{noop}" + password);
        // hawkBit's own user list (hawkbit.server.im.users) replaces the one user above once it names any: the
        // user with every permission, and the colleague who may not approve rollouts
        env.put("HAWKBIT_SERVER_IM_USERS_0_USERNAME", b.user);
        env.put("HAWKBIT_SERVER_IM_USERS_0_PASSWORD", "{noop}" + password);
        env.put("HAWKBIT_SERVER_IM_USERS_0_PERMISSIONS", "ALL");
        env.put("HAWKBIT_SERVER_IM_USERS_1_USERNAME", COLLEAGUE);
        env.put("HAWKBIT_SERVER_IM_USERS_1_PASSWORD", "{noop}" + password);
        env.put("HAWKBIT_SERVER_IM_USERS_1_PERMISSIONS", COLLEAGUE_PERMISSIONS);
        long t0 = System.nanoTime();
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start hawkBit: " + cmd, e);
        }
        HawkbitServer server = new HawkbitServer(process, port, b.user, password, logFile, postgres);
        LOG.infof("starting hawkBit on %s (pid %d, %s), log: %s", server.baseUrl(), process.pid(), server.database(),
                logFile);
        try {
            awaitReady(server, b.startTimeout);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        LOG.infof("hawkBit on %s ready after %d ms", server.baseUrl(), (System.nanoTime() - t0) / 1_000_000L);
        return server;
    }

    private static void awaitReady(HawkbitServer server, Duration timeout) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        String auth = "Basic " + Base64.getEncoder()
                .encodeToString((server.user + ":" + server.password).getBytes(StandardCharsets.UTF_8));
        HttpRequest probe = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/rest/v1/targets?limit=1"))
                .timeout(Duration.ofSeconds(5))
                .header("Authorization", auth)
                .header("Accept", "application/json")
                .GET().build();
        long deadline = System.nanoTime() + timeout.toNanos();
        int lastStatus = -1;
        while (true) {
            if (!server.process.isAlive()) {
                String tail = tail(server.logFile, 40);
                if (tail.contains("Address already in use") || tail.contains("Port " + server.port)) {
                    throw new PortClashException(server.port, "hawkBit could not bind port " + server.port);
                }
                throw new IllegalStateException("hawkBit exited with code " + server.process.exitValue()
                        + " before it was ready; see " + server.logFile + "\n" + tail);
            }
            try {
                HttpResponse<Void> r = http.send(probe, HttpResponse.BodyHandlers.discarding());
                lastStatus = r.statusCode();
                if (lastStatus == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for hawkBit", e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("hawkBit on " + server.baseUrl() + " not ready within " + timeout
                        + " (last HTTP status " + lastStatus + "); see " + server.logFile + "\n"
                        + tail(server.logFile, 40));
            }
            try {
                server.process.waitFor(250, TimeUnit.MILLISECONDS); // returns at once if the child dies
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for hawkBit", e);
            }
        }
    }

    private static String javaExecutable() {
        boolean windows = System.getProperty("os.name", "").toLowerCase().contains("win");
        Path fromHome = Path.of(System.getProperty("java.home"), "bin", windows ? "java.exe" : "java");
        if (Files.isExecutable(fromHome)) {
            return fromHome.toString();
        }
        return ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("cannot find the java executable"));
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }

    private static String randomPassword() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static String tail(Path file, int lines) {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long len = raf.length();
            long from = Math.max(0, len - 16_384);
            raf.seek(from);
            byte[] buf = new byte[(int) (len - from)];
            raf.readFully(buf);
            String[] all = new String(buf, StandardCharsets.UTF_8).split("\n");
            int start = Math.max(0, all.length - lines);
            return String.join("\n", Arrays.copyOfRange(all, start, all.length));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
