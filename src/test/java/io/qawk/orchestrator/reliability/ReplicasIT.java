package io.qawk.orchestrator.reliability;

import io.qawk.orchestrator.demo.Behaviour;
import io.qawk.orchestrator.testsupport.SharedHawkbit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 9: two service processes on one database drive deployments together (one per deployment at a time, through
 * the engine's advisory lock); hawkBit sees each device given each set exactly once. Then one replica is killed in
 * the middle and the other takes the deployment over and finishes it.
 */
class ReplicasIT {

    static ReliabilityPostgres pg;
    static ServiceProcess a;
    static ServiceProcess b;
    static Probe probe;

    @BeforeAll
    static void start() {
        pg = ReliabilityPostgres.start("replicas");
        probe = new Probe(pg);
        // the application name tells the replicas apart in pg_stat_activity (who holds the engine lock)
        a = ServiceProcess.start("replica-a", pg.jdbcUrl() + "?ApplicationName=replica-a", SharedHawkbit.get());
        b = ServiceProcess.start("replica-b", pg.jdbcUrl() + "?ApplicationName=replica-b", SharedHawkbit.get());
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[]{a, b, probe, pg}) {
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
    void twoReplicasAssignEverythingOnceAndTheSurvivorFinishesWhenOneIsKilled() {
        try (RelFleet fleet = new RelFleet("rel-rep-", SharedHawkbit.get(), RelFleet.KIOSK)) {
            for (int i = 1; i <= 12; i++) {
                String system = String.format("kiosk-%02d", i);
                if (i % 2 == 1) {
                    fleet.system(system, "c01", "head");
                } else {
                    fleet.system(system, "c01");
                }
            }
            QawkApi apiA = a.api();
            QawkApi apiB = b.api();
            int type = fleet.createType(apiA);
            fleet.awaitDiscovered(apiA, type);
            fleet.awaitDiscovered(apiB, type);
            fleet.preinstall(1);
            fleet.allDevices().forEach(d -> fleet.behaviour(d, Behaviour.succeedAfter(Duration.ofMillis(500 + (d.hashCode() & 0x7ff)))));

            // 1. both replicas, one deployment of 12 systems
            Map<String, Long> ran = new HashMap<>();
            fleet.allDevices().forEach(d -> ran.put(d, fleet.setFor(d, 1)));
            Map<String, Long> baseline = fleet.actionBaseline();
            int first = apiA.deploy("rel-rep-2", fleet.manifest(apiA, type, 2), fleet.systemNames(), "\"maxParallel\": 6");
            Set<String> holders = ConcurrentHashMap.newKeySet();
            Instant t1 = Instant.now();
            await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(50)).until(() -> {
                String h = probe.lockHolder(first);
                if (h != null) {
                    holders.add(h);
                }
                return "FINISHED".equals(apiB.state(first));
            });
            long firstSeconds = Duration.between(t1, Instant.now()).toSeconds();
            DeploymentCheck.Result r1 = DeploymentCheck.check(apiB, fleet, first, baseline, ran, Set.of());
            System.out.printf("[replicas] deployment 1: %s in %d s; engine lock seen held by %s; %d actions checked, "
                    + "%d duplicates, problems %s%n", apiA.deployment(first).getString("summary"), firstSeconds, holders,
                    r1.actionsChecked(), r1.duplicates(), r1.problems());
            assertThat(r1.problems()).isEmpty();
            assertThat(r1.duplicates()).isZero();
            assertThat(r1.actionsChecked()).isEqualTo(fleet.allDevices().size());

            // 2. kill the replica that holds the lock in the middle of the next deployment; the other finishes it
            fleet.allDevices().forEach(d -> ran.put(d, fleet.setFor(d, 2)));
            Map<String, Long> baseline2 = fleet.actionBaseline();
            int second = apiA.deploy("rel-rep-3", fleet.manifest(apiA, type, 3), fleet.systemNames(), "\"maxParallel\": 6");
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
                    .until(() -> probe.deviceStates(second).getOrDefault("ASSIGNED", 0) > 0);
            AtomicBoolean killed = new AtomicBoolean();
            String[] victim = new String[1];
            await().atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5)).until(() -> {
                String h = probe.lockHolder(second);
                if (h == null) {
                    return false;
                }
                victim[0] = h;
                (h.equals("replica-a") ? a : b).kill(); // SIGKILL in the middle of its pass
                killed.set(true);
                return true;
            });
            Instant killedAt = Instant.now();
            ServiceProcess survivor = victim[0].equals("replica-a") ? b : a;
            String survivorName = survivor.name();
            Census before = Census.read(survivor.api(), second);
            await().atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                    .until(() -> survivorName.equals(probe.lockHolder(second)));
            Duration takeover = Duration.between(killedAt, Instant.now());
            await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
                    .until(() -> "FINISHED".equals(survivor.api().state(second)));
            Duration toFinish = Duration.between(killedAt, Instant.now());
            Census after = Census.read(survivor.api(), second);
            DeploymentCheck.Result r2 = DeploymentCheck.check(survivor.api(), fleet, second, baseline2, ran, Set.of());
            System.out.printf("[replicas] deployment 2: killed %s while it held the lock (%s before the kill); %s took over "
                            + "after %d ms and finished %d s later: %s; %d actions checked, %d duplicates, problems %s%n",
                    victim[0], before, survivorName, takeover.toMillis(), toFinish.toSeconds(),
                    survivor.api().deployment(second).getString("summary"), r2.actionsChecked(), r2.duplicates(), r2.problems());
            assertThat(killed).isTrue();
            assertThat(takeover).isLessThan(Duration.ofSeconds(30));
            assertThat(before.lostIn(after)).isEmpty();
            assertThat(r2.problems()).isEmpty();
            assertThat(r2.duplicates()).isZero();
            assertThat(r2.actionsChecked()).isEqualTo(fleet.allDevices().size());
        }
    }
}
