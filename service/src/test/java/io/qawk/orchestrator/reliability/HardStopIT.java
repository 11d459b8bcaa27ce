package io.qawk.orchestrator.reliability;

import io.qawk.orchestrator.testkit.reliability.*;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 3, done-when #6: the service is killed with SIGKILL in the middle of a deployment and started again; the
 * deployment completes as if nothing happened and hawkBit holds exactly one assignment per device and set. Killed
 * while a soak or a verification is under way, or kept down longer than an order timeout: {@link RestartWhereItStoodIT}.
 */
class HardStopIT {

    @RegisterExtension
    static final KilledService qawk = new KilledService("hardstop");

    @Test
    void aDeploymentKilledMidWaySurvivesARestartWithoutAssigningAnythingTwice() {
        Instant t0 = Instant.now();
        try (RelLanes lanes = new RelLanes("rel-hard-", SharedHawkbit.get(), RelLanes.LANE)) {
            QawkApi api = qawk.service.api();
            for (int i = 1; i <= 6; i++) {
                lanes.system("lane-0" + i, "c01");
            }
            int type = lanes.createType(api);
            lanes.awaitDiscovered(api, type);
            lanes.preinstall(1);
            // some devices slow: the lane computers of three systems and a terminal of two others
            for (int i = 1; i <= 3; i++) {
                lanes.behaviour(lanes.id("lane-0" + i, "lane"), Behaviour.succeedAfter(Duration.ofSeconds(5)));
            }
            lanes.behaviour(lanes.id("lane-04", "term-a"), Behaviour.succeedAfter(Duration.ofSeconds(4)));
            lanes.behaviour(lanes.id("lane-05", "display"), Behaviour.succeedAfter(Duration.ofSeconds(3)));
            int manifest = lanes.manifest(api, type, 2);
            Map<String, Long> baseline = lanes.actionBaseline();
            Map<String, Long> ranBefore = new HashMap<>();
            lanes.allDevices().forEach(id -> ranBefore.put(id, lanes.setFor(id, 1)));

            int id = api.deploy("rel-hard", manifest, lanes.systemNames(), "\"maxParallel\": 3");

            // 1st kill: at a random moment once a system is under way and a device was given its set
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).until(() -> {
                List<Map<String, Object>> runs = api.runs(id);
                return runs.stream().anyMatch(r -> "RUNNING".equals(r.get("state")))
                        && runs.stream().flatMap(r -> QawkApi.devices(r).stream()).anyMatch(d -> "ASSIGNED".equals(d.get("state")));
            });
            Census before = Census.read(api, id);
            pauseRandomly(0, 1500);
            qawk.service.kill();
            System.out.printf("[hardstop] kill #1 (mid-deployment): before it %s; device states %s%n", before,
                    qawk.probe.deviceStates(id));
            qawk.service.restart();
            Census after = Census.read(api, id);
            assertThat(before.lostIn(after)).as("lost by kill #1").isEmpty();

            // 2nd kill: the moment an intent is stored (assignment decided, hawkBit's answer not yet recorded)
            Census before2 = Census.read(api, id);
            boolean inWindow = qawk.probe.awaitIntent(id, List.of("ASSIGNING", "ROLLBACK_ASSIGNING"), Duration.ofSeconds(60));
            if (inWindow) {
                qawk.service.kill();
                System.out.printf("[hardstop] kill #2 (%s): before it %s; device states %s%n",
                        "intent stored", before2, qawk.probe.deviceStates(id));
                qawk.service.restart();
                assertThat(before2.lostIn(Census.read(api, id))).as("lost by kill #2").isEmpty();
            }

            await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
                    .until(() -> "FINISHED".equals(api.state(id)));
            assertThat(api.deployment(id).getString("summary")).isEqualTo("6 of 6 updated, 0 rolled back");
            Census end = Census.read(api, id);
            assertThat(before.lostIn(end)).isEmpty();
            assertThat(before2.lostIn(end)).isEmpty();

            long recovered = end.eventIds().keySet().stream().flatMap(run -> api.events(id, run).stream())
                    .filter(e -> "RECOVERED".equals(e.get("type"))).count();
            System.out.printf("[hardstop] RECOVERED events: %d; hawkBit's action list carries set links: %s%n", recovered,
                    lanes.hawkbit.actions(lanes.allDevices().get(0)).get(0).path("_links").has("distributionset"));
            DeploymentCheck.Result result = DeploymentCheck.check(api, lanes, id, baseline, ranBefore, Set.of());
            // and the preinstalled set: still exactly one action for it
            for (String device : lanes.allDevices()) {
                long v1 = lanes.setFor(device, 1);
                assertThat(lanes.actions(device).stream().filter(a -> a.setId() == v1)).as(device).hasSize(1);
            }
            System.out.printf("[hardstop] %d devices, %d hawkBit actions checked, %d duplicates, %d kills, "
                            + "restarts took %s, whole test %d s%n", result.devices(), result.actionsChecked(),
                    result.duplicates(), qawk.service.starts() - 1, qawk.service.startTimes(),
                    Duration.between(t0, Instant.now()).toSeconds());
            assertThat(result.problems()).isEmpty();
            assertThat(result.duplicates()).isZero();
            assertThat(result.actionsChecked()).isEqualTo(24);
        }
    }

    /**
     * The crash point recovery is for: hawkBit took the assignment, the service died before recording it, and the
     * device meanwhile failed the set (on hawkBit 0.3.0M7 a failed set is no longer the assigned one, so sending it
     * again would create a second action). Once an intent is stored, the service is frozen (SIGSTOP) the moment
     * hawkBit shows the action; once the device has failed it, the frozen service is killed (SIGKILL) and restarted.
     */
    @Test
    void anAssignmentHawkbitTookJustBeforeTheCrashIsAdoptedNotSentAgain() {
        try (RelLanes lanes = new RelLanes("rel-adopt-", SharedHawkbit.get(), RelLanes.LANE)) {
            QawkApi api = qawk.service.api();
            int systems = 3; // each a try at the window; the freeze lands in it on the first as a rule
            for (int i = 1; i <= systems; i++) {
                lanes.system("lane-0" + i, "c01");
            }
            int type = lanes.createType(api);
            lanes.awaitDiscovered(api, type);
            lanes.preinstall(1);
            for (int i = 1; i <= systems; i++) {
                String bad = lanes.id("lane-0" + i, "term-a");
                lanes.behaviour(bad, Behaviour.failFor(lanes.setFor(bad, 2)).withDelay(Duration.ZERO));
            }
            int manifest = lanes.manifest(api, type, 2);
            Map<String, Long> baseline = lanes.actionBaseline();
            Map<String, Long> ranBefore = new HashMap<>();
            lanes.allDevices().forEach(d -> ranBefore.put(d, lanes.setFor(d, 1)));
            int id = api.deploy("rel-adopt", manifest, lanes.systemNames(), "\"maxParallel\": 1, \"maxFailed\": 100");

            int caught = 0;
            for (int attempt = 0; attempt < systems && caught == 0; attempt++) {
                if (!qawk.probe.awaitIntent(id, List.of("ASSIGNING"), Duration.ofSeconds(60))) {
                    break;
                }
                String bad = qawk.probe.devicesIn(id, "ASSIGNING").stream().filter(d -> d.endsWith("-term-a")).findFirst()
                        .orElse(null);
                // the intent is committed; hawkBit is called shortly after it (after the pass has photographed new
                // systems), takes the assignment at once and answers ASSIGNMENT_ANSWER_DELAY later, and only then does
                // the engine record it. The service is frozen the moment hawkBit shows the action, inside that window.
                boolean shown = bad != null && awaitQuietly(Duration.ofSeconds(20), Duration.ofMillis(50), () ->
                        lanes.actions(bad).stream().anyMatch(a -> a.id() > baseline.get(bad)));
                qawk.service.freeze();
                boolean stillIntent = bad != null && qawk.probe.devicesIn(id, "ASSIGNING").contains(bad);
                boolean tookIt = stillIntent && shown;
                System.out.printf("[hardstop] attempt %d: intent of %s, frozen %s, hawkBit took it: %s%n", attempt, bad,
                        stillIntent ? "before the answer was recorded" : "too late", tookIt);
                if (tookIt) {
                    // the device fails the set it was given while the service stands still, then the service dies
                    awaitQuietly(Duration.ofSeconds(30), () -> "error".equals(lanes.hawkbit.updateStatus(bad)));
                    qawk.service.kill();
                    caught++;
                    System.out.printf("[hardstop] froze with the intent of %s stored and hawkBit's action created; "
                            + "device failed it; SIGKILL; restart%n", bad);
                    qawk.service.restart();
                } else {
                    qawk.service.thaw(); // not shown in time, or its answer recorded already: try the next system
                    awaitQuietly(Duration.ofSeconds(30), () -> qawk.probe.intents(id, List.of("ASSIGNING")) == 0);
                }
            }
            await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
                    .until(() -> "FINISHED".equals(api.state(id)));
            long recovered = api.runs(id).stream().flatMap(r -> api.events(id, QawkApi.runId(r)).stream())
                    .filter(e -> "RECOVERED".equals(e.get("type"))).count();
            DeploymentCheck.Result result = DeploymentCheck.check(api, lanes, id, baseline, ranBefore,
                    new HashSet<>(lanes.systemNames()));
            System.out.printf("[hardstop] adopt: caught %d crash(es) after hawkBit took the call, %d RECOVERED event(s), "
                    + "%d actions checked, %d duplicates, problems %s%n", caught, recovered, result.actionsChecked(),
                    result.duplicates(), result.problems());
            assertThat(caught).as("a freeze landed after hawkBit took the assignment").isPositive();
            assertThat(recovered).isPositive();
            assertThat(result.problems()).isEmpty();
            assertThat(result.duplicates()).isZero();
        }
    }

    private static boolean awaitQuietly(Duration max, Callable<Boolean> condition) {
        return awaitQuietly(max, Duration.ofMillis(100), condition);
    }

    private static boolean awaitQuietly(Duration max, Duration poll, Callable<Boolean> condition) {
        try {
            await().atMost(max).pollInterval(poll).until(condition);
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    /** A random pause that picks the moment of a kill (not a wait for anything). */
    static void pauseRandomly(long minMillis, long maxMillis) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(minMillis, maxMillis + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
