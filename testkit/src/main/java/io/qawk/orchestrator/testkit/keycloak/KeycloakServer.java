package io.qawk.orchestrator.testkit.keycloak;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.testkit.HawkbitServer;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * A real Keycloak ({@value #VERSION}, the {@code org.keycloak:keycloak-quarkus-dist} zip from Maven Central, which the
 * service module's build unpacks into {@code <projectDir>/target/keycloak}) run as a child process for tests:
 * {@code kc.sh start-dev} on an in-memory database, on a free 127.0.0.1 port, under a JDK 21 or newer found by
 * {@link Jdks}. Once it answers, the test kit's realm {@value #REALM} is imported through the admin API (a confidential
 * client {@value #CLIENT_ID} with a service account, the users {@code alice} and {@code bob} in the group
 * {@code qawk-admins}, {@code victor} in {@code qawk-viewers}, {@code nina} in neither, {@code paula} in
 * {@code qawk-approvers} and {@code lena} in both {@code qawk-admins} and {@code qawk-approvers}, and a public client
 * {@value #SHORT_LIVED_CLIENT} whose tokens live five seconds and carry Qawk as their audience (an audience mapper), a
 * public client {@value #OTHER_CLIENT} of another application, whose tokens do not), and a second realm {@value #OTHER_REALM} whose tokens
 * come from another issuer. The client secret and the users' password are random per start, kept in memory only.
 * <p>
 * Starts are serialised across JVMs by a file lock in the distribution's folder: a first {@code start-dev} rewrites
 * the distribution's build ({@code lib/quarkus}), which two at once would corrupt. {@link #close()} (or the JVM's exit)
 * stops it. About 400 lines: the launch, the wait, the import and the token requests share the child and its log.
 */
public final class KeycloakServer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(KeycloakServer.class);

    public static final String VERSION = "26.4.0";
    public static final String REALM = "qawk";
    public static final String OTHER_REALM = "elsewhere";
    public static final String CLIENT_ID = "qawk";
    public static final String SHORT_LIVED_CLIENT = "qawk-short-lived";
    /** A public client of the same realm for another application: its tokens carry no audience for Qawk. */
    public static final String OTHER_CLIENT = "qawk-other";
    /** The group a user needs to be a Qawk admin, and a viewer; the token carries them in the claim {@code groups}. */
    public static final String ADMIN_GROUP = "qawk-admins";
    public static final String VIEWER_GROUP = "qawk-viewers";
    /** The group that makes a user a Qawk approver (four eyes, issue 42). */
    public static final String APPROVER_GROUP = "qawk-approvers";
    /**
     * How long a start may take: {@code start-dev} on 2 cores beside the suite's other JVMs took 87-158 s in three
     * whole runs and over 240 s in a fourth (2026-12-06, load 14-15), which failed the classes that sign in.
     */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(420);

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Object START_MONITOR = new Object();

    private final ProcessHandle handle;
    private final Process process;
    private final int port;
    private final String clientSecret;
    private final String password;
    private final Path logFile;
    private final Thread shutdownHook;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private volatile boolean closed;

    private KeycloakServer(Process process, ProcessHandle handle, int port, String clientSecret, String password,
                           Path logFile, boolean owner) {
        this.process = process;
        this.handle = handle;
        this.port = port;
        this.clientSecret = clientSecret;
        this.password = password;
        this.logFile = logFile;
        this.shutdownHook = owner ? new Thread(this::stopQuietly, "keycloak-shutdown-" + port) : null;
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    /** A Keycloak this JVM already runs (started by an earlier load of this class), if its process lives. */
    static Optional<KeycloakServer> adopt(long pid, int port, String clientSecret, String password, Path logFile) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .map(h -> new KeycloakServer(null, h, port, clientSecret, password, logFile, false));
    }

    /** {@code <projectDir>/target/keycloak/keycloak-<version>}, where the service module's build unpacks it. */
    public static Path distribution(Path projectDir) {
        return projectDir.resolve("target").resolve("keycloak").resolve("keycloak-" + VERSION);
    }

    /** Starts one, imports the realms, and returns once tokens can be had. */
    public static KeycloakServer start() {
        Path dist = distribution(HawkbitServer.projectDir());
        if (!Files.isRegularFile(dist.resolve("bin/kc.sh"))) {
            throw new IllegalStateException("Keycloak " + VERSION + " is not unpacked at " + dist + ". The service"
                    + " module's build unpacks org.keycloak:keycloak-quarkus-dist:" + VERSION + ":zip (Maven Central)"
                    + " there before its tests (process-test-classes); run the README's test command, or"
                    + " ./mvnw -pl service -am process-test-classes.");
        }
        Path jdk = Jdks.atLeast(21, "Keycloak " + VERSION);
        synchronized (START_MONITOR) { // FileChannel locks are per JVM, not per thread
            try (FileChannel ch = FileChannel.open(dist.resolve(".qawk-start.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock lock = ch.lock()) {
                for (int attempt = 1; ; attempt++) {
                    try {
                        return launch(dist, jdk);
                    } catch (PortClashException e) {
                        if (attempt == 3) {
                            throw e;
                        }
                        LOG.warnf("%s; trying another port", e.getMessage());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot lock " + dist, e);
            }
        }
    }

    private static final class PortClashException extends IllegalStateException {
        PortClashException(String message) {
            super(message);
        }
    }

    private static KeycloakServer launch(Path dist, Path jdk) throws IOException {
        int port = freePort();
        String adminPassword = randomSecret();
        Path logFile = dist.getParent().resolve("keycloak-" + port + ".log");
        List<String> cmd = List.of("sh", dist.resolve("bin/kc.sh").toString(), "start-dev", "--db=dev-mem",
                "--http-host=127.0.0.1", "--http-port=" + port, "--hostname-strict=false", "--cache=local");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dist.toFile()).redirectErrorStream(true)
                .redirectOutput(logFile.toFile());
        Map<String, String> env = pb.environment();
        env.put("JAVA_HOME", jdk.toString());
        env.put("JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx512m");
        env.put("KC_BOOTSTRAP_ADMIN_USERNAME", "qawk-bootstrap");
        env.put("KC_BOOTSTRAP_ADMIN_PASSWORD", adminPassword);
        long t0 = System.nanoTime();
        Process process = pb.start();
        KeycloakServer server = new KeycloakServer(process, process.toHandle(), port, randomSecret(), randomSecret(),
                logFile, true);
        try {
            server.awaitReady(START_TIMEOUT);
            String adminToken = server.token("master", "admin-cli", null, "qawk-bootstrap", adminPassword);
            server.importRealm(adminToken, "qawk-realm.json");
            server.importRealm(adminToken, "other-realm.json");
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        LOG.infof("%s ready after %d ms (log %s)", server, (System.nanoTime() - t0) / 1_000_000L, logFile);
        return server;
    }

    /** {@code http://127.0.0.1:<port>/realms/qawk}: the issuer of the test realm, as {@code QAWK_OIDC_ISSUER} takes it. */
    public String issuer() {
        return issuer(REALM);
    }

    public String issuer(String realm) {
        return baseUrl() + "/realms/" + realm;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return handle.pid();
    }

    public String clientSecret() {
        return clientSecret;
    }

    /** The password of every user of the test realms. */
    public String password() {
        return password;
    }

    public Path logFile() {
        return logFile;
    }

    public boolean isAlive() {
        return handle.isAlive();
    }

    /** An access token of {@code user} from the test realm, by the password grant of the confidential client. */
    public String userToken(String user) {
        return token(REALM, CLIENT_ID, clientSecret, user, password);
    }

    /** An access token of the confidential client's service account (client credentials). */
    public String serviceAccountToken() {
        return tokenRequest(REALM, form("grant_type", "client_credentials", "client_id", CLIENT_ID,
                "client_secret", clientSecret));
    }

    /** An access token of {@code user} from {@code realm} by the password grant of {@code client} (public if no secret). */
    public String token(String realm, String client, String secret, String user, String userPassword) {
        Map<String, String> f = new LinkedHashMap<>(form("grant_type", "password", "client_id", client,
                "username", user, "password", userPassword, "scope", "openid"));
        if (secret != null) {
            f.put("client_secret", secret);
        }
        return tokenRequest(realm, f);
    }

    private String tokenRequest(String realm, Map<String, String> form) {
        String body = form.entrySet().stream().map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                .collect(Collectors.joining("&"));
        HttpRequest request = HttpRequest.newBuilder(URI.create(issuer(realm) + "/protocol/openid-connect/token"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> r = send(request);
        if (r.statusCode() != 200) {
            throw new IllegalStateException("Keycloak refused a token (" + form.get("grant_type") + " for "
                    + form.getOrDefault("username", form.get("client_id")) + " in " + realm + "): HTTP "
                    + r.statusCode() + " " + r.body());
        }
        try {
            return JSON.readTree(r.body()).path("access_token").asText();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void importRealm(String adminToken, String resource) {
        String realm;
        try (InputStream in = KeycloakServer.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the test kit lacks its realm " + resource);
            }
            realm = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("@CLIENT_SECRET@", clientSecret).replace("@PASSWORD@", password);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + "/admin/realms"))
                .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + adminToken)
                .POST(HttpRequest.BodyPublishers.ofString(realm)).build();
        HttpResponse<String> r = send(request);
        if (r.statusCode() != 201) {
            throw new IllegalStateException("Keycloak did not import " + resource + ": HTTP " + r.statusCode() + " "
                    + r.body());
        }
    }

    private void awaitReady(Duration timeout) {
        HttpRequest probe = HttpRequest.newBuilder(URI.create(issuer("master") + "/.well-known/openid-configuration"))
                .timeout(Duration.ofSeconds(5)).GET().build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!handle.isAlive()) {
                String tail = tail();
                if (tail.contains("Address already in use")) {
                    throw new PortClashException("Keycloak could not bind port " + port);
                }
                throw new IllegalStateException("Keycloak exited before it was ready:\n" + tail);
            }
            try {
                if (http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Keycloak", e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Keycloak on " + baseUrl() + " not ready within " + timeout + ":\n"
                        + tail());
            }
            try {
                handle.onExit().get(250, TimeUnit.MILLISECONDS); // returns at once if the child dies
            } catch (TimeoutException e) {
                // still starting
            } catch (Exception e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Keycloak", e);
            }
        }
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("Keycloak on " + baseUrl() + " did not answer " + request.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Stops it (its children first: the build step of kc.sh runs Java as a child), SIGKILL after 20 s. */
    @Override
    public void close() {
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down: the hook runs
            }
        }
        stopQuietly();
    }

    private synchronized void stopQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        List<ProcessHandle> all = new ArrayList<>(handle.descendants().toList());
        all.add(handle);
        all.forEach(ProcessHandle::destroy);
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
    }

    @Override
    public String toString() {
        return "Keycloak " + VERSION + " " + baseUrl() + " (pid " + handle.pid() + ")";
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static Map<String, String> form(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String randomSecret() {
        byte[] b = new byte[18];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }

    /** The parsed claims of a token (its middle part), for tests that look inside one. */
    public static JsonNode claims(String jwt) {
        String[] parts = jwt.split("\\.");
        try {
            return JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
