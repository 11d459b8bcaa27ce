package io.qawk.orchestrator.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.qawk.orchestrator.testkit.HawkbitServer;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testkit.reliability.ReliabilityPostgres;

/**
 * Issue 43: stopping {@code ./mvnw -Pdemo} the way an IDE does, a SIGTERM to Maven, stops the demo too. Maven's
 * {@code exec:exec} forks the dev start and passes no signal on, so before this the dev start, its service and its
 * Postgres kept running, holding the port and the folder. Maven is played by {@link ForksLikeMaven} (a JVM that
 * forks the dev start through pipes and waits), stopped with SIGTERM once the service answers.
 */
class DemoStopsWithMavenIT {

    static final Duration STOPS_WITHIN = Duration.ofSeconds(60);

    private final List<ProcessHandle> started = new ArrayList<>();
    private Path dataDir;

    @AfterEach
    void leaveNothingRunning() throws IOException {
        started.forEach(p -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        });
        if (dataDir != null) {
            postmasterPid().flatMap(ProcessHandle::of).ifPresent(ProcessHandle::destroy);
            try (var paths = Files.walk(dataDir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void aSigtermToMavenStopsTheDevStartItsServiceAndItsPostgres() throws Exception {
        HawkbitServer hawkbit = SharedHawkbit.get();
        dataDir = Files.createTempDirectory(ReliabilityPostgres.outputDir(), "demo-stop-");
        int port = freePort();
        Path log = dataDir.resolve("maven.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                ForksLikeMaven.class.getName(),
                java, "-Xmx128m", "-XX:+UseSerialGC", "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                "-Dqawk.app.jar=" + System.getProperty("qawk.app.jar"), "-cp", System.getProperty("qawk.demo.classpath"),
                StartDev.class.getName())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        List.of("QAWK_DB_URL", "QAWK_DB_USER", "QAWK_DB_PASSWORD").forEach(env::remove);
        env.put("QAWK_DEMO_DIR", dataDir.toString());
        env.put("QAWK_PORT", String.valueOf(port));
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("QAWK_HAWKBIT_URL", hawkbit.baseUrl());
        env.put("QAWK_HAWKBIT_USER", hawkbit.user());
        env.put("QAWK_HAWKBIT_PASSWORD", hawkbit.password());
        env.put("QAWK_HAWKBIT_TENANT", hawkbit.tenant());
        env.put("QAWK_ADMIN_PASSWORD", "demo-stop-admin");
        env.put("QAWK_VIEWER_PASSWORD", "demo-stop-viewer");
        Process maven = pb.start();
        started.add(maven.toHandle());

        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest live = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/live"))
                .timeout(Duration.ofSeconds(3)).build();
        await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(500)).until(() -> {
            assertThat(maven.isAlive()).as("Maven's stand-in; its log:\n%s", tail(log)).isTrue();
            try {
                return http.send(live, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException e) {
                return false;
            }
        });
        List<ProcessHandle> demo = maven.descendants().toList();
        long postmaster = postmasterPid().orElseThrow(() -> new AssertionError("no postmaster.pid in " + dataDir));
        assertThat(demo).as("the dev start, its service and its wrapper").hasSizeGreaterThanOrEqualTo(3);
        started.addAll(demo);

        maven.destroy(); // SIGTERM, to Maven alone, as an IDE's stop button sends it
        assertThat(maven.waitFor(30, TimeUnit.SECONDS)).as("Maven ends on SIGTERM").isTrue();
        long stopped = System.nanoTime();
        await().atMost(STOPS_WITHIN).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            assertThat(demo.stream().filter(ProcessHandle::isAlive).map(p -> p.pid() + " " + p.info().command()
                    .orElse("?")).toList()).as("the demo's processes after Maven ended").isEmpty();
            assertThat(ProcessHandle.of(postmaster).filter(ProcessHandle::isAlive)).as("the postmaster %d", postmaster)
                    .isEmpty();
        });
        assertThat(http.sendAsync(live, HttpResponse.BodyHandlers.discarding()).handle((r, e) -> e != null).get())
                .as("the port is free again").isTrue();
        System.out.printf("[demo-stop] the dev start, its service and Postgres stopped %d ms after Maven ended%n",
                Duration.ofNanos(System.nanoTime() - stopped).toMillis());
    }

    private Optional<Long> postmasterPid() {
        try {
            List<String> lines = Files.readAllLines(dataDir.resolve("postgres").resolve("postmaster.pid"),
                    StandardCharsets.UTF_8);
            return lines.isEmpty() || lines.get(0).isBlank() ? Optional.empty()
                    : Optional.of(Long.parseLong(lines.get(0).trim()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
