package io.qawk.orchestrator.reliability;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testkit.reliability.DeploymentCheck;
import io.qawk.orchestrator.testkit.reliability.QawkApi;
import io.qawk.orchestrator.testkit.reliability.RelLanes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The service is killed (SIGKILL) while something it times is under way, and started again: a soak, a device waiting to
 * verify, an order whose devices are out while the service stays down for longer than the order timeout. Each goes on
 * from where it stood. Killed in the middle of assignments: {@link HardStopIT}.
 */
class RestartWhereItStoodIT {

    @RegisterExtension
    static final KilledService qawk = new KilledService("restart");

    /**
     * Issue 15: the service is killed while one system soaks and the lane computer of another has finished but not yet
     * reported its new version, and started again. Both continue where they stood: the soak ends when it was stored
     * to end (not restarted from zero, not forgotten), the device still waits since the moment it began to (its
     * verify timeout not restarted), and verifies once it reports; nothing is assigned twice.
     */
    @Test
    void aRestartDuringVerificationAndSoakContinuesBothWhereTheyStood() {
        try (RelLanes lanes = new RelLanes("rel-soak-", SharedHawkbit.get(), RelLanes.LANE)) {
            QawkApi api = qawk.service.api();
            lanes.system("lane-01", "c01");
            lanes.system("lane-02", "c01");
            int type = lanes.createType(api);
            lanes.awaitDiscovered(api, type);
            lanes.preinstall(1);
            String soaks = lanes.id("lane-01", "lane");
            String waits = lanes.id("lane-02", "lane");
            lanes.devices.reportAfterInstall(soaks, lanes.prefix + "app:2", Map.of("app_version", "2"));
            int manifest = lanes.manifest(api, type, 2, Map.of("lane", "attribute.app_version==2"));
            Map<String, Long> baseline = lanes.actionBaseline();
            Map<String, Long> ranBefore = new HashMap<>();
            lanes.allDevices().forEach(d -> ranBefore.put(d, lanes.setFor(d, 1)));
            int id = api.deploy("rel-soak", manifest, lanes.systemNames(),
                    "\"maxParallel\": 2, \"soakSeconds\": 12, \"verifyTimeoutSeconds\": 600");

            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() ->
                    "VERIFYING".equals(run(api, id, lanes.prefix + "lane-01").get("state"))
                            && "VERIFYING".equals(device(api, id, lanes.prefix + "lane-02", waits).get("state")));
            Object soakEnds = run(api, id, lanes.prefix + "lane-01").get("soakEndsAt");
            Object verifyingSince = device(api, id, lanes.prefix + "lane-02", waits).get("verifyingSince");
            assertThat(soakEnds).isNotNull();
            assertThat(verifyingSince).isNotNull();

            qawk.service.kill();
            qawk.service.restart();
            Instant back = Instant.now();
            System.out.printf("[restart] soak: killed with lane-01 soaking until %s and %s verifying since %s;"
                    + " back at %s%n", soakEnds, waits, verifyingSince, back);

            Map<String, Object> waiting = device(api, id, lanes.prefix + "lane-02", waits);
            assertThat(waiting.get("state")).as("still waiting to verify, not failed nor forgotten").isEqualTo("VERIFYING");
            assertThat(waiting.get("verifyingSince")).as("its verify timeout counts from where it stood")
                    .isEqualTo(verifyingSince);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> "SUCCEEDED".equals(run(api, id, lanes.prefix + "lane-01").get("state")));
            Map<String, Object> soaked = run(api, id, lanes.prefix + "lane-01");
            // issue 32: time Qawk was not running is not time the system was healthy; a restart within an observation's
            // freshness moves nothing, a longer one moves the stored end on by exactly the gap the timeline names
            long extended = api.events(id, ((Number) soaked.get("id")).intValue()).stream()
                    .filter(e -> "SOAK_EXTENDED".equals(e.get("type")))
                    .mapToLong(e -> Duration.parse((String) ((Map<?, ?>) e.get("data")).get("extension")).toSeconds())
                    .sum();
            assertThat(Instant.parse((String) soaked.get("soakEndsAt")))
                    .as("the stored end, moved on only by the time nobody observed (%d s), not a new soak", extended)
                    .isEqualTo(Instant.parse((String) soakEnds).plusSeconds(extended));
            Instant ended = Instant.parse((String) soaked.get("endedAt"));
            assertThat(ended).isAfterOrEqualTo(Instant.parse((String) soaked.get("soakEndsAt")));

            lanes.devices.setAttributes(waits, Map.of("app_version", "2"));
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                    .until(() -> "FINISHED".equals(api.state(id)));
            assertThat(api.deployment(id).getString("summary")).isEqualTo("2 of 2 updated, 0 rolled back");
            DeploymentCheck.Result result = DeploymentCheck.check(api, lanes, id, baseline, ranBefore, Set.of());
            assertThat(result.problems()).isEmpty();
            assertThat(result.duplicates()).isZero();
        }
    }

    /**
     * Issue 32: Qawk is killed (SIGKILL) while order 1 is out and stays down for longer than the order timeout, as in
     * an upgrade, a node drain or a crash loop; its devices are still at it when it is back and report a few seconds
     * later. Time Qawk was not running is not device time: nothing goes back, nothing is assigned twice, and the
     * timeline says why the timeouts moved. Today the first pass after the restart judges the devices against deadlines
     * that passed while nobody looked, and every system goes back.
     */
    @Test
    void qawkDownLongerThanTheOrderTimeoutWhileOrder1IsOutRollsNothingBack() {
        int orderTimeout = 15;
        Duration down = Duration.ofSeconds(orderTimeout + 10);
        try (RelLanes lanes = new RelLanes("rel-down-", SharedHawkbit.get(), RelLanes.LANE)) {
            QawkApi api = qawk.service.api();
            lanes.system("lane-01", "c01");
            lanes.system("lane-02", "c01");
            int type = lanes.createType(api);
            lanes.awaitDiscovered(api, type);
            lanes.preinstall(1);
            List<String> order1 = Gaps.firstOrder(lanes, lanes.systemNames());
            order1.forEach(d -> lanes.behaviour(d, Behaviour.silent()));
            int manifest = lanes.manifest(api, type, 2);
            Map<String, Long> baseline = lanes.actionBaseline();
            Map<String, Long> ranBefore = new HashMap<>();
            lanes.allDevices().forEach(d -> ranBefore.put(d, lanes.setFor(d, 1)));
            int id = api.deploy("rel-down", manifest, lanes.systemNames(),
                    "\"maxParallel\": 2, \"orderTimeoutSeconds\": " + orderTimeout);
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .until(() -> Gaps.allIn(api, id, order1, "ASSIGNED"));

            qawk.service.kill();
            Instant killed = Instant.now();
            await().during(down).atMost(down.plusSeconds(10)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> !qawk.service.isAlive());
            qawk.service.restart();
            System.out.printf("[restart] down: killed with order 1 out, back %d s later (order timeout %d s)%n",
                    Duration.between(killed, Instant.now()).toSeconds(), orderTimeout);
            order1.forEach(d -> lanes.behaviour(d, Behaviour.succeedAfter(Duration.ofSeconds(3))));

            await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                    .until(() -> Set.of("FINISHED", "FAILED").contains(api.state(id)));
            String reasons = Gaps.reasons(api, id);
            assertThat(api.deployment(id).getString("summary")).as(reasons).isEqualTo("2 of 2 updated, 0 rolled back");
            DeploymentCheck.Result result = DeploymentCheck.check(api, lanes, id, baseline, ranBefore, Set.of());
            assertThat(result.problems()).isEmpty();
            assertThat(result.duplicates()).isZero();
            Gaps.messages(api, id).forEach((system, messages) -> assertThat(Gaps.gap(messages))
                    .as("%s's timeline names the time Qawk was not running: %s", system, messages)
                    .hasValueSatisfying(m -> {
                        assertThat(m.group(1)).isEqualTo("Qawk was not running");
                        assertThat(Long.parseLong(m.group(2))).isGreaterThanOrEqualTo(down.toSeconds() - 5);
                    }));
        }
    }

    private static Map<String, Object> run(QawkApi api, int deploymentId, String system) {
        return api.runs(deploymentId).stream().filter(r -> system.equals(r.get("system"))).findFirst().orElseThrow();
    }

    private static Map<String, Object> device(QawkApi api, int deploymentId, String system, String controllerId) {
        return QawkApi.devices(run(api, deploymentId, system)).stream()
                .filter(d -> controllerId.equals(d.get("controllerId"))).findFirst().orElseThrow();
    }
}
