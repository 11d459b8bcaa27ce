package io.qawk.orchestrator.demo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jboss.logging.Logger;

import io.qawk.orchestrator.testkit.HawkbitServer;
import io.qawk.orchestrator.testkit.db.EmbeddedDatabase;

/**
 * The development start ({@code ./mvnw -Pdemo}; Keycloak calls it {@code start-dev}): the packaged service, as it
 * ships, next to what a laptop does not have — an embedded Postgres (data kept in {@code target/qawk-demo}), a local
 * hawkBit 0.3.0M7 and about 35 simulated devices that speak DDI — and the demo data ({@link DemoSetup}). The
 * production start is the service alone, which refuses to run without {@code QAWK_DB_URL}.
 * <p>
 * With {@code QAWK_HAWKBIT_URL} (and {@code QAWK_HAWKBIT_USER}, {@code QAWK_HAWKBIT_PASSWORD}) set, the service is
 * pointed at that hawkBit instead and no devices or demo data are made: a try-out against your own hawkBit with a
 * throw-away database. Settings (environment): {@code QAWK_PORT} (8080), {@code QAWK_DEMO_DIR} (where the database
 * lives), {@code QAWK_ADMIN_PASSWORD} / {@code QAWK_VIEWER_PASSWORD} / {@code QAWK_APPROVER_PASSWORD} ({@code admin} /
 * {@code viewer} / {@code approver}: the approver approves or rejects deployments that need four eyes).
 * Stops everything on Ctrl-C; the service and Postgres also stop when this JVM is killed (see {@link ServiceChild}).
 * It also stops when the process that started it ends ({@code -Dqawk.demo.stop-with-parent=false} turns that off):
 * an IDE's stop button sends {@code ./mvnw -Pdemo} a SIGTERM, and Maven's {@code exec:exec} does not pass it on to
 * the process it forked.
 */
public final class StartDev {

    private static final Logger LOG = Logger.getLogger(StartDev.class);

    static final Duration READY_DEADLINE = Duration.ofSeconds(Long.getLong("qawk.demo.ready-seconds", 240));

    private StartDev() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (Boolean.parseBoolean(System.getProperty("qawk.demo.stop-with-parent", "true"))) {
            stopWithParent();
        }
        Map<String, String> env = System.getenv();
        Path project = HawkbitServer.projectDir();
        int port = Integer.parseInt(env.getOrDefault("QAWK_PORT", "8080"));
        Path dataDir = Path.of(env.getOrDefault("QAWK_DEMO_DIR", project.resolve("target/qawk-demo").toString()))
                .toAbsolutePath();
        String adminPassword = env.getOrDefault("QAWK_ADMIN_PASSWORD", "admin");
        String viewerPassword = env.getOrDefault("QAWK_VIEWER_PASSWORD", "viewer");
        String approverPassword = env.getOrDefault("QAWK_APPROVER_PASSWORD", "approver");
        Path jar = Path.of(System.getProperty("qawk.app.jar",
                project.resolve("service/target/quarkus-app/quarkus-run.jar").toString()));

        LOG.infof("Demo: [0/7] embedded Postgres, data in %s", dataDir.resolve("postgres"));
        EmbeddedDatabase db = EmbeddedDatabase.start(dataDir.resolve("postgres").toString());

        Optional<String> externalHawkbit = Optional.ofNullable(env.get("QAWK_HAWKBIT_URL")).filter(s -> !s.isBlank());
        HawkbitServer local = null;
        DemoSetup.Hawkbit hawkbit;
        if (externalHawkbit.isPresent()) {
            hawkbit = new DemoSetup.Hawkbit(externalHawkbit.get(), env.getOrDefault("QAWK_HAWKBIT_USER", ""),
                    env.getOrDefault("QAWK_HAWKBIT_PASSWORD", ""), env.getOrDefault("QAWK_HAWKBIT_TENANT", "DEFAULT"));
            LOG.infof("Demo: using the hawkBit at %s (QAWK_HAWKBIT_URL): no simulated devices, no demo data",
                    hawkbit.url());
        } else {
            LOG.infof("Demo:       starting a local hawkBit from %s/%s; the first run builds it from Maven Central "
                    + "and takes a few minutes", project, HawkbitServer.SOURCES);
            local = HawkbitServer.start(project);
            hawkbit = new DemoSetup.Hawkbit(local.baseUrl(), local.user(), local.password(), local.tenant());
            LOG.infof("Demo:       local %s is up, log %s", hawkbit, local.logFile());
        }

        Map<String, String> serviceEnv = new LinkedHashMap<>();
        serviceEnv.put("QAWK_PORT", String.valueOf(port));
        serviceEnv.put("QAWK_DB_URL", db.jdbcUrl());
        serviceEnv.put("QAWK_DB_USER", EmbeddedDatabase.USER);
        serviceEnv.put("QAWK_DB_PASSWORD", EmbeddedDatabase.USER);
        serviceEnv.put("QAWK_HAWKBIT_URL", hawkbit.url());
        serviceEnv.put("QAWK_HAWKBIT_USER", hawkbit.user());
        serviceEnv.put("QAWK_HAWKBIT_PASSWORD", hawkbit.password());
        serviceEnv.put("QAWK_HAWKBIT_TENANT", hawkbit.tenant());
        // plain passwords are hashed by the service at start-up (common/HashedPasswordsConfigSourceFactory)
        serviceEnv.put("QAWK_ADMIN_PASSWORD", adminPassword);
        serviceEnv.put("QAWK_VIEWER_PASSWORD", viewerPassword);
        serviceEnv.put("QAWK_APPROVER_PASSWORD", approverPassword);
        serviceEnv.putIfAbsent("QAWK_SYNC_INTERVAL", env.getOrDefault("QAWK_SYNC_INTERVAL", "15s"));

        LOG.infof("Demo: starting the service (%s) on port %d", jar, port);
        ServiceChild service = ServiceChild.start(jar, List.of("-Xmx512m"), serviceEnv);
        String url = "http://localhost:" + port;
        QawkApi qawk = new QawkApi("http://127.0.0.1:" + port, "admin", adminPassword);
        DemoSetup setup = local != null ? new DemoSetup(hawkbit, qawk, url) : null;
        HawkbitServer hawkbitToStop = local;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("Demo: stopping");
            if (setup != null) {
                setup.close();
            }
            service.close();
            if (hawkbitToStop != null) {
                hawkbitToStop.close();
            }
            // the embedded Postgres stops in its own shutdown hook
        }, "qawk-demo-stop"));

        long deadline = System.nanoTime() + READY_DEADLINE.toNanos();
        while (!qawk.ready()) {
            if (!service.isAlive()) {
                LOG.errorf("Demo: the service ended (exit %d) before it was ready; its log is above", service.exitValue());
                System.exit(1);
            }
            if (System.nanoTime() > deadline) {
                LOG.errorf("Demo: the service was not ready after %s", READY_DEADLINE);
                System.exit(1);
            }
            Thread.sleep(500);
        }
        LOG.infof("Demo: the service is ready at %s (admin/%s, viewer/%s, approver/%s)", url,
                env.containsKey("QAWK_ADMIN_PASSWORD") ? "$QAWK_ADMIN_PASSWORD" : "admin",
                env.containsKey("QAWK_VIEWER_PASSWORD") ? "$QAWK_VIEWER_PASSWORD" : "viewer",
                env.containsKey("QAWK_APPROVER_PASSWORD") ? "$QAWK_APPROVER_PASSWORD" : "approver");
        if (setup != null) {
            setup.run();
        }
        LOG.info("Demo: running; Ctrl-C stops the service, hawkBit, the devices and Postgres");
        while (service.isAlive()) {
            Thread.sleep(1000);
        }
        LOG.errorf("Demo: the service ended (exit %d)", service.exitValue());
        System.exit(service.exitValue() == 0 ? 0 : 1);
    }

    /**
     * When the process that started this one ends (Maven, stopped by an IDE or killed), so does the demo: the shutdown
     * hook stops the service, hawkBit, the devices and Postgres.
     */
    static void stopWithParent() {
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> {
            LOG.infof("Demo: the process that started it (pid %d, Maven) ended: stopping", parent.pid());
            System.exit(0);
        }));
    }
}
