package io.qawk.orchestrator.reliability;

import io.qawk.orchestrator.testkit.reliability.*;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.ProcessFreeze;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 9: two service processes on one database drive deployments together (one per deployment at a time, through
 * the engine's advisory lock); hawkBit sees each device given each set exactly once. Then one replica is killed in
 * the middle and the other takes the deployment over and finishes it.
 * <p>
 * Long run (issue 14, off by default): {@code -Dqawk.replicas.kills=N} adds deployment after deployment, each with
 * systems that fail and go back, in which the replica holding the engine lock is SIGKILLed (at random, right after an
 * intent, right after a rollback intent -- ChaosIT's modes) and restarted, N times in all; after each deployment every
 * device must have been given its forward set exactly once (and, rolled back, its photographed set exactly once after
 * it). {@code -Dqawk.replicas.seed=S} repeats a run's random choices.
 */
class ReplicasIT {

    static final int LONG_KILLS = Integer.getInteger("qawk.replicas.kills", 0);
    static final long SEED = Long.getLong("qawk.replicas.seed", System.currentTimeMillis());

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
        try (RelLanes lanes = new RelLanes("rel-rep-", SharedHawkbit.get(), RelLanes.KIOSK)) {
            for (int i = 1; i <= 12; i++) {
                String system = String.format("kiosk-%02d", i);
                if (i % 2 == 1) {
                    lanes.system(system, "c01", "head");
                } else {
                    lanes.system(system, "c01");
                }
            }
            QawkApi apiA = a.api();
            QawkApi apiB = b.api();
            int type = lanes.createType(apiA);
            lanes.awaitDiscovered(apiA, type);
            lanes.awaitDiscovered(apiB, type);
            lanes.preinstall(1);
            lanes.allDevices().forEach(d -> lanes.behaviour(d, Behaviour.succeedAfter(Duration.ofMillis(500 + (d.hashCode() & 0x7ff)))));

            // 1. both replicas, one deployment of 12 systems
            Map<String, Long> ran = new HashMap<>();
            lanes.allDevices().forEach(d -> ran.put(d, lanes.setFor(d, 1)));
            Map<String, Long> baseline = lanes.actionBaseline();
            int first = apiA.deploy("rel-rep-2", lanes.manifest(apiA, type, 2), lanes.systemNames(), "\"maxParallel\": 6");
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
            DeploymentCheck.Result r1 = DeploymentCheck.check(apiB, lanes, first, baseline, ran, Set.of());
            System.out.printf("[replicas] deployment 1: %s in %d s; engine lock seen held by %s; %d actions checked, "
                    + "%d duplicates, problems %s%n", apiA.deployment(first).getString("summary"), firstSeconds, holders,
                    r1.actionsChecked(), r1.duplicates(), r1.problems());
            assertThat(r1.problems()).isEmpty();
            assertThat(r1.duplicates()).isZero();
            assertThat(r1.actionsChecked()).isEqualTo(lanes.allDevices().size());

            // 2. kill the replica that holds the lock in the middle of the next deployment; the other finishes it
            lanes.allDevices().forEach(d -> ran.put(d, lanes.setFor(d, 2)));
            Map<String, Long> baseline2 = lanes.actionBaseline();
            int second = apiA.deploy("rel-rep-3", lanes.manifest(apiA, type, 3), lanes.systemNames(), "\"maxParallel\": 6");
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
            DeploymentCheck.Result r2 = DeploymentCheck.check(survivor.api(), lanes, second, baseline2, ran, Set.of());
            System.out.printf("[replicas] deployment 2: killed %s while it held the lock (%s before the kill); %s took over "
                            + "after %d ms and finished %d s later: %s; %d actions checked, %d duplicates, problems %s%n",
                    victim[0], before, survivorName, takeover.toMillis(), toFinish.toSeconds(),
                    survivor.api().deployment(second).getString("summary"), r2.actionsChecked(), r2.duplicates(), r2.problems());
            assertThat(killed).isTrue();
            assertThat(takeover).isLessThan(Duration.ofSeconds(30));
            assertThat(before.lostIn(after)).isEmpty();
            assertThat(r2.problems()).isEmpty();
            assertThat(r2.duplicates()).isZero();
            assertThat(r2.actionsChecked()).isEqualTo(lanes.allDevices().size());
        }
    }

    /**
     * Issue 32: the replica driving a deployment is frozen (SIGSTOP: a long GC pause, a stalled VM) in the middle of
     * its pass, for longer than the order timeout, while order 1 is out; its devices finish meanwhile. To freeze it
     * in the middle of a pass, hawkBit is frozen first for a moment, so that the pass hangs in a hawkBit call holding
     * the engine lock. Neither the other replica nor the frozen one, once it goes on, may time anything out for the
     * frozen stretch: every system succeeds, nothing is assigned twice, the timeline names the gap. Today the frozen
     * replica, thawed, judges hawkBit's answer from before the freeze ("still pending") against deadlines that passed
     * while it stood still, and every system goes back.
     */
    @Test
    void theReplicaHoldingADeploymentFrozenPastTheOrderTimeoutTimesNothingOutForTheFrozenStretch() {
        for (ServiceProcess p : List.of(a, b)) {
            if (!p.isAlive()) {
                p.restart();
            }
        }
        int orderTimeout = 15;
        Duration frozenFor = Duration.ofSeconds(orderTimeout + 10);
        try (RelLanes lanes = new RelLanes("rel-frozen-", SharedHawkbit.get(), RelLanes.KIOSK)) {
            lanes.system("kiosk-01", "c01");
            lanes.system("kiosk-02", "c01");
            QawkApi apiA = a.api();
            int type = lanes.createType(apiA);
            lanes.awaitDiscovered(apiA, type);
            lanes.awaitDiscovered(b.api(), type);
            lanes.preinstall(1);
            List<String> order1 = Gaps.firstOrder(lanes, lanes.systemNames());
            order1.forEach(d -> lanes.behaviour(d, Behaviour.silent()));
            Map<String, Long> ran = new HashMap<>();
            lanes.allDevices().forEach(d -> ran.put(d, lanes.setFor(d, 1)));
            Map<String, Long> baseline = lanes.actionBaseline();
            int id = apiA.deploy("rel-frozen-2", lanes.manifest(apiA, type, 2), lanes.systemNames(),
                    "\"maxParallel\": 2, \"orderTimeoutSeconds\": " + orderTimeout);
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .until(() -> Gaps.allIn(apiA, id, order1, "ASSIGNED"));

            ServiceProcess holder;
            Set<String> holdersWhileFrozen = ConcurrentHashMap.newKeySet();
            ProcessFreeze frozen = null;
            try {
                try (ProcessFreeze hawkbit = SharedHawkbit.get().freeze()) {
                    // the replica whose pass now hangs in a hawkBit call keeps the lock: the same holder for 2 s
                    String[] seen = new String[1];
                    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                            .until(() -> {
                                String h = probe.lockHolder(id);
                                boolean same = h != null && h.equals(seen[0]);
                                seen[0] = h;
                                return same;
                            });
                    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                            .until(() -> seen[0].equals(probe.lockHolder(id)));
                    holder = seen[0].equals(a.name()) ? a : b;
                    frozen = holder.frozen();
                    System.out.printf("[replicas] frozen %s in the middle of its pass (hawkBit frozen %d ms)%n",
                            holder.name(), hawkbit.length().toMillis());
                }
                // hawkBit answers again (into the frozen replica's socket, unread); the devices finish meanwhile
                order1.forEach(d -> lanes.behaviour(d, Behaviour.succeedAfter(Duration.ofSeconds(3))));
                ServiceProcess other = holder == a ? b : a;
                await().during(frozenFor).atMost(frozenFor.plusSeconds(20)).pollInterval(Duration.ofMillis(500))
                        .until(() -> {
                            String h = probe.lockHolder(id);
                            if (h != null) {
                                holdersWhileFrozen.add(h);
                            }
                            return other.isAlive();
                        });
            } finally {
                if (frozen != null) {
                    frozen.close();
                }
            }
            System.out.printf("[replicas] %s thawed after %d s; lock holders seen meanwhile: %s%n", holder.name(),
                    frozen.length().toSeconds(), holdersWhileFrozen);

            await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                    .until(() -> Set.of("FINISHED", "FAILED").contains(apiA.state(id)));
            String reasons = Gaps.reasons(apiA, id);
            assertThat(apiA.deployment(id).getString("summary")).as(reasons).isEqualTo("2 of 2 updated, 0 rolled back");
            DeploymentCheck.Result result = DeploymentCheck.check(apiA, lanes, id, baseline, ran, Set.of());
            assertThat(result.problems()).isEmpty();
            assertThat(result.duplicates()).isZero();
            Gaps.messages(apiA, id).forEach((system, messages) -> assertThat(Gaps.gap(messages))
                    .as("%s's timeline names the gap: %s", system, messages).isPresent());
        }
    }

    @Test
    void longRunKillingTheLockHolderAgainAndAgainAssignsEachSetOncePerDevice() throws IOException {
        Assumptions.assumeTrue(LONG_KILLS > 0, "long run off; -Dqawk.replicas.kills=N turns it on");
        for (ServiceProcess p : List.of(a, b)) {
            if (!p.isAlive()) {
                p.restart();
            }
        }
        Instant t0 = Instant.now();
        Random random = new Random(SEED);
        System.out.printf("[replicas-long] %d kills, seed %d (-Dqawk.replicas.seed=%d repeats the choices)%n",
                LONG_KILLS, SEED, SEED);
        List<String> problems = new ArrayList<>();
        List<String> killLog = new ArrayList<>();
        Map<ChaosIT.KillMode, Integer> killsByMode = new EnumMap<>(ChaosIT.KillMode.class);
        List<Long> takeoverMillis = new ArrayList<>();
        List<Long> roundSeconds = new ArrayList<>();
        int kills = 0;
        int holderKills = 0;
        int rounds = 0;
        int runs = 0;
        int rolledBack = 0;
        int devices = 0;
        int actionsChecked = 0;
        int duplicates = 0;
        int onNeither = 0;
        int lost = 0;
        Set<String> holdersSeen = new LinkedHashSet<>();

        try (RelLanes lanes = new RelLanes("rel-replong-", SharedHawkbit.get(), RelLanes.KIOSK)) {
            for (int i = 1; i <= 12; i++) {
                String system = String.format("kiosk-%02d", i);
                if (i % 2 == 1) {
                    lanes.system(system, "c01", "head");
                } else {
                    lanes.system(system, "c01");
                }
            }
            int type = lanes.createType(a.api());
            lanes.awaitDiscovered(a.api(), type);
            lanes.awaitDiscovered(b.api(), type);
            lanes.preinstall(1);
            Map<String, Long> running = new HashMap<>();
            lanes.allDevices().forEach(id -> running.put(id, lanes.setFor(id, 1)));

            while (kills < LONG_KILLS && rounds < LONG_KILLS * 2 + 2) {
                rounds++;
                Instant roundStart = Instant.now();
                int version = rounds + 1;
                List<String> systems = lanes.systemNames();
                Set<String> failing = new LinkedHashSet<>();
                while (failing.size() < ChaosIT.FAILING_PER_ROUND) {
                    failing.add(systems.get(random.nextInt(systems.size())));
                }
                for (String device : lanes.allDevices()) {
                    lanes.behaviour(device, Behaviour.succeedAfter(Duration.ofMillis(300 + random.nextInt(2200))));
                }
                for (String system : failing) {
                    List<String> ds = lanes.devicesOf(system);
                    String bad = ds.get(random.nextInt(ds.size()));
                    lanes.behaviour(bad, Behaviour.failFor(lanes.setFor(bad, version))
                            .withDelay(Duration.ofMillis(random.nextInt(1200))));
                }
                QawkApi starter = (random.nextBoolean() ? a : b).api();
                int manifest = lanes.manifest(starter, type, version);
                Map<String, Long> baseline = lanes.actionBaseline();
                int id = starter.deploy("rel-replong-" + version, manifest, systems,
                        "\"maxParallel\": 6, \"maxFailed\": 100");
                List<Census> seen = new ArrayList<>();

                for (int k = 0; k < ChaosIT.MAX_KILLS_PER_ROUND && kills < LONG_KILLS; k++) {
                    ChaosIT.KillMode mode = ChaosIT.KillMode.values()[kills % ChaosIT.KillMode.values().length];
                    Census before = Census.read(a.api(), id);
                    if (!"RUNNING".equals(a.api().state(id))) {
                        break; // this deployment is over: the remaining kills go to the next one
                    }
                    boolean hit = mode.awaitMoment(probe, id);
                    if (!hit) {
                        continue; // no such moment came: the deployment is probably over
                    }
                    // the replica in the middle of its pass: the one holding the deployment's lock right now
                    String holder = mode == ChaosIT.KillMode.RANDOM ? awaitHolder(id, Duration.ofSeconds(3)) : probe.lockHolder(id);
                    if (mode != ChaosIT.KillMode.RANDOM) {
                        HardStopIT.pauseRandomly(0, 250); // sometimes before hawkBit got the call, sometimes after
                    }
                    ServiceProcess victim = holder == null ? (random.nextBoolean() ? a : b) : holder.equals(a.name()) ? a : b;
                    ServiceProcess survivor = victim == a ? b : a;
                    if (holder != null) {
                        holdersSeen.add(holder);
                        holderKills++;
                    }
                    victim.kill();
                    Instant killedAt = Instant.now();
                    kills++;
                    killsByMode.merge(mode, 1, Integer::sum);
                    String takeover = "-";
                    if (holder != null) {
                        String survivorName = survivor.name();
                        try {
                            await().atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                                    .until(() -> survivorName.equals(probe.lockHolder(id))
                                            || !"RUNNING".equals(survivor.api().state(id)));
                            long ms = Duration.between(killedAt, Instant.now()).toMillis();
                            if ("RUNNING".equals(survivor.api().state(id))) {
                                takeoverMillis.add(ms);
                                takeover = ms + " ms";
                            } else {
                                takeover = "(deployment ended)";
                            }
                        } catch (ConditionTimeoutException e) {
                            problems.add("round " + version + ": " + survivorName + " did not take deployment " + id
                                    + " over within 60 s of the kill of " + victim.name());
                        }
                    }
                    String line = String.format("kill %2d  round %d  %-15s %-9s (%s) %5.1f s into the deployment; "
                                    + "takeover %s; committed then: %s", kills, rounds, mode, victim.name(),
                            holder == null ? "no lock holder seen" : "lock holder",
                            Duration.between(roundStart, killedAt).toMillis() / 1000.0, takeover, probe.deviceStates(id));
                    killLog.add(line);
                    System.out.println("[replicas-long] " + line);
                    Census afterOnSurvivor = Census.read(survivor.api(), id);
                    victim.restart();
                    Census afterOnVictim = Census.read(victim.api(), id);
                    for (Census after : List.of(afterOnSurvivor, afterOnVictim)) {
                        List<String> gone = before.lostIn(after);
                        lost += gone.size();
                        gone.forEach(g -> problems.add("round " + version + ", " + line + ": " + g));
                    }
                    seen.add(before);
                }

                try {
                    await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
                            .until(() -> a.api().deployment(id).getString("state").matches("FINISHED|FAILED|ABORTED"));
                } catch (ConditionTimeoutException stuck) {
                    problems.add("round " + version + ": deployment " + id + " did not end: "
                            + a.api().deployment(id).getString("summary") + "; device states " + probe.deviceStates(id));
                    break;
                }
                String state = a.api().state(id);
                if (!"FINISHED".equals(state)) {
                    problems.add("round " + version + ": deployment ended " + state);
                }
                Census end = Census.read(b.api(), id);
                for (Census c : seen) {
                    List<String> gone = c.lostIn(end);
                    lost += gone.size();
                    gone.forEach(g -> problems.add("round " + version + " (at the end): " + g));
                }
                DeploymentCheck.Result r = DeploymentCheck.check(a.api(), lanes, id, baseline, running, failing);
                r.problems().forEach(p -> problems.add("round " + version + ": " + p));
                actionsChecked += r.actionsChecked();
                duplicates += r.duplicates();
                onNeither += r.onNeitherSet();
                devices += r.devices();
                runs += end.runs();
                for (Map<String, Object> run : a.api().runs(id)) {
                    boolean back = "ROLLED_BACK".equals(run.get("state"));
                    if (back) {
                        rolledBack++;
                    }
                    for (Map<String, Object> d : QawkApi.devices(run)) {
                        if (!back) {
                            running.put((String) d.get("controllerId"), ((Number) d.get("toSetId")).longValue());
                        }
                    }
                }
                long secs = Duration.between(roundStart, Instant.now()).toSeconds();
                roundSeconds.add(secs);
                System.out.printf("[replicas-long] round %d (deployment %d, v%d, failing %s): %s in %d s, %d problem(s) so far%n",
                        rounds, id, version, failing, a.api().deployment(id).getString("summary"), secs, problems.size());
            }

            StringBuilder sb = new StringBuilder();
            sb.append("Qawk replicas long run (seed ").append(SEED).append(")\n");
            sb.append(String.format("%-46s %s%n", "kill -9 (SIGKILL) of a replica", kills + "  " + killsByMode));
            sb.append(String.format("%-46s %d  %s%n", "  of them the engine lock holder", holderKills, holdersSeen));
            sb.append(String.format("%-46s %d%n", "deployments (each with rollbacks)", rounds));
            sb.append(String.format("%-46s %d (%d rolled back)%n", "system runs", runs, rolledBack));
            sb.append(String.format("%-46s %d%n", "run devices checked", devices));
            sb.append(String.format("%-46s %d%n", "hawkBit assignments checked", actionsChecked));
            sb.append(String.format("%-46s %d%n", "duplicate assignments found", duplicates));
            sb.append(String.format("%-46s %d%n", "devices on neither manifest nor photo set", onNeither));
            sb.append(String.format("%-46s %d%n", "runs/devices/events lost", lost));
            sb.append(String.format("%-46s %d%n", "other problems", problems.size()));
            sb.append(String.format("%-46s %s%n", "takeover after a lock holder's kill (ms)", takeoverMillis));
            sb.append(String.format("%-46s %s%n", "seconds per deployment", roundSeconds));
            for (ServiceProcess p : List.of(a, b)) {
                sb.append(String.format("%-46s %s%n", p.name() + " start times", p.startTimes().stream()
                        .map(d -> String.format("%.1fs", d.toMillis() / 1000.0)).toList()));
            }
            sb.append(String.format("%-46s %d s%n", "whole test", Duration.between(t0, Instant.now()).toSeconds()));
            sb.append("kills:\n");
            killLog.forEach(l -> sb.append("  ").append(l).append('\n'));
            String summary = sb.toString();
            System.out.println(summary);
            Path out = ReliabilityPostgres.outputDir().resolve("replicas-long-summary.txt");
            Files.writeString(out, summary + (problems.isEmpty() ? "" : "\nPROBLEMS\n" + String.join("\n", problems) + "\n"),
                    StandardCharsets.UTF_8);

            assertThat(problems).as("problems (see %s)", out).isEmpty();
            assertThat(duplicates).isZero();
            assertThat(onNeither).isZero();
            assertThat(lost).isZero();
            assertThat(kills).isEqualTo(LONG_KILLS);
        }
    }

    /** The replica holding the deployment's engine lock, awaited for up to {@code max}; null when none was seen. */
    private static String awaitHolder(int deploymentId, Duration max) {
        String[] holder = new String[1];
        try {
            await().atMost(max).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5))
                    .until(() -> (holder[0] = probe.lockHolder(deploymentId)) != null);
        } catch (ConditionTimeoutException e) {
            return null;
        }
        return holder[0];
    }
}
