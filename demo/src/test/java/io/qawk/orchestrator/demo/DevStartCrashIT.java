package io.qawk.orchestrator.demo;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testkit.reliability.Census;
import io.qawk.orchestrator.testkit.reliability.DeploymentCheck;
import io.qawk.orchestrator.testkit.reliability.QawkApi;
import io.qawk.orchestrator.testkit.reliability.RelLanes;
import io.qawk.orchestrator.testkit.reliability.ReliabilityPostgres;
import io.qawk.orchestrator.testkit.reliability.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 14, part 3, where the embedded Postgres now lives (issue 16): the development start ({@link StartDev}: the
 * packaged service next to an embedded Postgres, data in {@code QAWK_DEMO_DIR}) is killed with SIGKILL in the middle
 * of a deployment and started again on the same folder. It starts, keeps its data, finishes the deployment, and
 * hawkBit holds exactly one action per device and set.
 *
 * <p>Kill #1 also kills the dev start's child processes (the service, the Postgres watchdog, the service's lifeline),
 * so the postmaster is left running, orphaned, holding the folder: the next start has to stop it. Kill #2 kills the
 * dev start's JVM alone: the watchdog has to stop the postmaster and the lifeline the service, before anything is
 * started again.
 */
class DevStartCrashIT {

    /** How long a postmaster may outlive its killed service (the watchdog reacts at once; a fast shutdown is quick). */
    static final Duration POSTMASTER_OUTLIVES_AT_MOST = Duration.ofSeconds(30);

    static Path dataDir;
    static ServiceProcess service;

    @BeforeAll
    static void start() throws IOException {
        dataDir = Files.createTempDirectory(ReliabilityPostgres.outputDir(), "dev-start-crash-");
        service = ServiceProcess.startDev("dev-start-crash", dataDir, SharedHawkbit.get(),
                System.getProperty("qawk.demo.classpath"));
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
        if (dataDir != null) {
            // whatever happened above (today's main leaves the postmaster running), leave no Postgres behind
            postmasterPid().ifPresent(DevStartCrashIT::stopPostmaster);
            try (var paths = Files.walk(dataDir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // leftovers under target/ are harmless
            }
        }
    }

    @Test
    void theDevStartKilledMidDeploymentStartsAgainOnItsFolderAndFinishesWithoutAssigningAnythingTwice() {
        try (RelLanes lanes = new RelLanes("rel-emb-", SharedHawkbit.get(), RelLanes.LANE)) {
            QawkApi api = service.api();
            for (int i = 1; i <= 4; i++) {
                lanes.system("lane-0" + i, "c01");
            }
            int type = lanes.createType(api);
            lanes.awaitDiscovered(api, type);
            lanes.preinstall(1);
            for (int i = 1; i <= 4; i++) {
                lanes.behaviour(lanes.id("lane-0" + i, "lane"), Behaviour.succeedAfter(Duration.ofSeconds(4)));
            }
            int manifest = lanes.manifest(api, type, 2);
            Map<String, Long> baseline = lanes.actionBaseline();
            Map<String, Long> ranBefore = new HashMap<>();
            lanes.allDevices().forEach(d -> ranBefore.put(d, lanes.setFor(d, 1)));
            int id = api.deploy("rel-emb", manifest, lanes.systemNames(), "\"maxParallel\": 2");

            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).until(() -> {
                List<Map<String, Object>> runs = api.runs(id);
                return runs.stream().anyMatch(r -> "RUNNING".equals(r.get("state")))
                        && runs.stream().flatMap(r -> QawkApi.devices(r).stream()).anyMatch(d -> "ASSIGNED".equals(d.get("state")));
            });
            Census before = Census.read(api, id);

            // kill #1: the dev start and its children; the postmaster it started stays behind, holding the folder
            long first = postmasterPid().orElseThrow(() -> new AssertionError("no postmaster.pid in " + dataDir));
            service.killWithChildren();
            assertThat(ProcessHandle.of(first).map(ProcessHandle::isAlive)).as("the orphaned postmaster %d", first)
                    .contains(true);
            System.out.printf("[dev-start-crash] kill #1 mid-deployment (%s); postmaster %d left running%n", before, first);
            service.restart();
            assertThat(ProcessHandle.of(first).filter(ProcessHandle::isAlive)).as("the old postmaster %d", first)
                    .isEmpty();
            Census afterFirst = Census.read(api, id);
            assertThat(before.lostIn(afterFirst)).as("lost by kill #1: the data folder was kept").isEmpty();

            // kill #2: the dev start's JVM alone; the watchdog stops the postmaster and the lifeline the service
            long second = postmasterPid().orElseThrow(() -> new AssertionError("no postmaster.pid in " + dataDir));
            assertThat(second).isNotEqualTo(first);
            List<ProcessHandle> children = service.children();
            assertThat(children).as("the dev start's child processes").isNotEmpty();
            service.kill();
            long killed = System.nanoTime();
            await().atMost(POSTMASTER_OUTLIVES_AT_MOST).pollInterval(Duration.ofMillis(100))
                    .until(() -> ProcessHandle.of(second).filter(ProcessHandle::isAlive).isEmpty() && postmasterPid().isEmpty()
                            && children.stream().noneMatch(ProcessHandle::isAlive));
            System.out.printf("[dev-start-crash] kill #2: postmaster %d and the service stopped %d ms after the dev start died%n", second,
                    Duration.ofNanos(System.nanoTime() - killed).toMillis());
            service.restart();
            assertThat(before.lostIn(Census.read(api, id))).as("lost by kill #2").isEmpty();

            await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
                    .until(() -> "FINISHED".equals(api.state(id)));
            assertThat(api.deployment(id).getString("summary")).isEqualTo("4 of 4 updated, 0 rolled back");
            assertThat(before.lostIn(Census.read(api, id))).isEmpty();
            DeploymentCheck.Result result = DeploymentCheck.check(api, lanes, id, baseline, ranBefore, Set.of());
            System.out.printf("[dev-start-crash] %d devices, %d hawkBit actions checked, %d duplicates, restarts took %s%n",
                    result.devices(), result.actionsChecked(), result.duplicates(), service.startTimes());
            assertThat(result.problems()).isEmpty();
            assertThat(result.duplicates()).isZero();
            assertThat(result.actionsChecked()).isEqualTo(16);
        }
    }

    /** The PID in the data folder's {@code postmaster.pid}, when there is one. */
    static Optional<Long> postmasterPid() {
        Path pidFile = dataDir.resolve("postgres").resolve("postmaster.pid");
        try {
            List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
            return lines.isEmpty() || lines.get(0).isBlank() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).trim()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGINT (Postgres' fast shutdown) and wait for the postmaster to be gone. */
    private static void stopPostmaster(long pid) {
        Optional<ProcessHandle> pm = ProcessHandle.of(pid);
        if (pm.isEmpty() || !pm.get().info().command().orElse("").endsWith("postgres")) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-INT", String.valueOf(pid)).inheritIO().start().waitFor();
            pm.get().onExit().completeOnTimeout(pm.get(), 60, TimeUnit.SECONDS).join();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
