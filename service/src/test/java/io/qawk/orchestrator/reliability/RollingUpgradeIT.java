package io.qawk.orchestrator.reliability;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testkit.reliability.DeploymentCheck;
import io.qawk.orchestrator.testkit.reliability.PreviousVersion;
import io.qawk.orchestrator.testkit.reliability.QawkApi;
import io.qawk.orchestrator.testkit.reliability.RelLanes;
import io.qawk.orchestrator.testkit.reliability.ReliabilityPostgres;
import io.qawk.orchestrator.testkit.reliability.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 57, a rolling upgrade: Kubernetes runs the old and the new replica side by side while the new one migrates the
 * schema. The previous version (the parent of the last commit that changed the migrations, packaged from the git
 * history: {@link PreviousVersion}) starts on a fresh Postgres and migrates it to its schema; a deployment of lanes on
 * the real hawkBit is started and its first order sent; then the version under test starts on the same Postgres and
 * migrates it further; the devices finish, and both drive and serve the deployment to its end. Meanwhile both are read
 * without pause (the deployment, its runs, the systems, the deployments, the inventory). Every answer of both is 2xx or
 * 4xx, no engine pass of either fails, and hawkBit saw each device given each set once.
 * <p>
 * {@code -Dqawk.previous.commit=3cd7b5e} (V31, before the driver setting) fails as issue 57 saw it: the previous
 * version answers 500 and an engine pass fails on {@code cached plan must not change result type} once the schema is
 * migrated to V37; with {@code -Dqawk.previous.url-params=prepareThreshold=0} added to its URL it does not.
 * <p>
 * Packaging the previous version takes minutes (once per commit, kept in {@code target/previous-version}), so this runs
 * with {@code -Pbenchmark} (alone: {@code -Pbenchmark -Dtest=None -Dit.test=RollingUpgradeIT}), not in the suite.
 */
@Tag("upgrade")
class RollingUpgradeIT {

    static ReliabilityPostgres pg;
    static ServiceProcess previous;
    static ServiceProcess current;

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[]{previous, current, pg}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    @Test
    void theOldAndTheNewVersionServeAndDriveOneDeploymentWhileTheNewOneMigrates() throws Exception {
        Path project = Path.of(System.getProperty("qawk.project.dir", "..")).toAbsolutePath().normalize();
        PreviousVersion old = PreviousVersion.get(project);
        System.out.printf("[upgrade] previous version %s (%s), packaged in %d s%n", old.commit(), old.jar(),
                old.buildTime().toSeconds());

        pg = ReliabilityPostgres.start("upgrade");
        // -Dqawk.previous.url-params=prepareThreshold=0: what an operator adds to the URL of a release from before the
        // driver setting before upgrading it (docs/operations.md)
        String oldParams = System.getProperty("qawk.previous.url-params", "");
        previous = ServiceProcess.startJar("previous", pg.jdbcUrl() + "?ApplicationName=previous"
                + (oldParams.isBlank() ? "" : "&" + oldParams), SharedHawkbit.get(), old.jar());
        String schemaBefore = schemaVersion();
        try (RelLanes lanes = new RelLanes("rel-upg-", SharedHawkbit.get(), RelLanes.LANE)) {
            for (int i = 1; i <= 4; i++) {
                lanes.system(String.format("lane-%02d", i), "c0" + (1 + i % 2));
            }
            QawkApi oldApi = previous.api();
            int type = lanes.createType(oldApi);
            lanes.awaitDiscovered(oldApi, type);
            lanes.preinstall(1);
            // order 1 (terminals, display) waits unanswered until the new version is up
            lanes.allDevices().forEach(d -> lanes.behaviour(d, Behaviour.silent()));
            Map<String, Long> ran = new HashMap<>();
            lanes.allDevices().forEach(d -> ran.put(d, lanes.setFor(d, 1)));
            Map<String, Long> baseline = lanes.actionBaseline();
            int id = oldApi.deploy("rel-upg-2", lanes.manifest(oldApi, type, 2), lanes.systemNames(),
                    "\"maxParallel\": 4");
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .until(() -> oldApi.runs(id).stream().flatMap(r -> QawkApi.devices(r).stream())
                            .anyMatch(d -> "ASSIGNED".equals(d.get("state"))));

            Readers readers = new Readers(List.of(
                    "/qawk/v1/systemdeployments/" + id, "/qawk/v1/systemdeployments/" + id + "/runs",
                    "/qawk/v1/systemtypes/" + type + "/systems?limit=500", "/qawk/v1/systemdeployments",
                    "/qawk/v1/inventory"));
            readers.read(previous);
            Instant newStart = Instant.now();
            current = ServiceProcess.start("current", pg.jdbcUrl() + "?ApplicationName=current", SharedHawkbit.get());
            String schemaAfter = schemaVersion();
            System.out.printf("[upgrade] the version under test started in %d s and migrated the schema %s -> %s%n",
                    Duration.between(newStart, Instant.now()).toSeconds(), schemaBefore, schemaAfter);
            readers.read(current);
            lanes.allDevices().forEach(d -> lanes.behaviour(d, Behaviour.succeedAfter(
                    Duration.ofMillis(1500 + (d.hashCode() & 0x3ff)))));
            try {
                await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
                        .until(() -> "FINISHED".equals(current.api().state(id)));
                // both go on reading the finished deployment a little, the old one on the migrated schema
                int seen = readers.total();
                await().atMost(Duration.ofSeconds(60)).until(() -> readers.total() > seen + 40);
            } finally {
                readers.stop();
            }

            DeploymentCheck.Result check = DeploymentCheck.check(current.api(), lanes, id, baseline, ran, Set.of());
            Map<String, Double> oldErrors = engineErrors(previous);
            Map<String, Double> newErrors = engineErrors(current);
            System.out.printf("[upgrade] %s; answers %s; engine errors previous %s, current %s; %d actions checked, "
                            + "%d duplicates, problems %s%n", current.api().deployment(id).getString("summary"),
                    readers.summary(), oldErrors, newErrors, check.actionsChecked(), check.duplicates(),
                    check.problems());
            assertThat(schemaAfter).as("the version under test migrated the schema").isNotEqualTo(schemaBefore);
            assertThat(readers.count(previous)).as("answers of the previous version").isGreaterThan(20);
            assertThat(readers.count(current)).as("answers of the version under test").isGreaterThan(20);
            assertThat(readers.failures()).as("answers that were neither 2xx nor 4xx").isEmpty();
            assertThat(oldErrors.getOrDefault("internal", 0.0)).as("failed engine passes of the previous version")
                    .isZero();
            assertThat(newErrors.getOrDefault("internal", 0.0)).as("failed engine passes of the version under test")
                    .isZero();
            assertThat(previous.logLinesContaining("cached plan must not change result type")
                    + current.logLinesContaining("cached plan must not change result type")).isZero();
            assertThat(current.api().deployment(id).getString("summary")).isEqualTo("4 of 4 updated, 0 rolled back");
            assertThat(check.problems()).isEmpty();
            assertThat(check.duplicates()).isZero();
            assertThat(check.actionsChecked()).isEqualTo(lanes.allDevices().size());
        }
    }

    private static String schemaVersion() throws SQLException {
        try (Connection c = pg.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("select version from flyway_schema_history where success "
                        + "order by installed_rank desc limit 1")) {
            assertThat(rs.next()).as("a migrated schema").isTrue();
            return "V" + rs.getString(1);
        }
    }

    static final Pattern ENGINE_ERRORS = Pattern.compile(
            "^qawk_engine_errors_total\\{[^}]*kind=\"([a-z_]+)\"[^}]*} ([0-9.eE+-]+)$", Pattern.MULTILINE);

    /** {@code qawk_engine_errors_total} by kind, as the process exposes it. */
    private static Map<String, Double> engineErrors(ServiceProcess p) throws IOException, InterruptedException {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(p.baseUrl() + "/q/metrics"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
        Map<String, Double> byKind = new HashMap<>();
        Matcher m = ENGINE_ERRORS.matcher(metrics);
        while (m.find()) {
            byKind.merge(m.group(1), Double.parseDouble(m.group(2)), Double::sum);
        }
        return byKind;
    }

    /** Threads reading the API of each version without pause, counting every answer's status. */
    static final class Readers {
        private final List<String> paths;
        private final AtomicBoolean stopped = new AtomicBoolean();
        private final List<Thread> threads = new ArrayList<>();
        private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
        private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        private final String auth = "Basic " + Base64.getEncoder().encodeToString(
                ("viewer:" + ServiceProcess.VIEWER_PASSWORD).getBytes(StandardCharsets.UTF_8));

        Readers(List<String> paths) {
            this.paths = paths;
        }

        void read(ServiceProcess p) {
            Thread t = new Thread(() -> {
                int i = 0;
                while (!stopped.get()) {
                    String path = paths.get(i++ % paths.size());
                    HttpRequest req = HttpRequest.newBuilder(URI.create(p.baseUrl() + path)).header("Authorization", auth)
                            .timeout(Duration.ofSeconds(30)).GET().build();
                    try {
                        HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
                        counts.computeIfAbsent(p.name() + " " + r.statusCode(), k -> new AtomicInteger()).incrementAndGet();
                        if (r.statusCode() >= 500 || r.statusCode() < 200) {
                            failures.add(p.name() + " GET " + path + " -> " + r.statusCode() + " " + r.body());
                        }
                    } catch (IOException e) {
                        failures.add(p.name() + " GET " + path + " -> " + e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }, "upgrade-reader-" + p.name());
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }

        void stop() throws InterruptedException {
            stopped.set(true);
            for (Thread t : threads) {
                t.join(Duration.ofSeconds(40).toMillis());
            }
        }

        int count(ServiceProcess p) {
            return counts.entrySet().stream().filter(e -> e.getKey().startsWith(p.name() + " "))
                    .mapToInt(e -> e.getValue().get()).sum();
        }

        int total() {
            return counts.values().stream().mapToInt(AtomicInteger::get).sum();
        }

        List<String> failures() {
            return List.copyOf(failures);
        }

        String summary() {
            return new TreeMap<>(counts).toString();
        }
    }
}
