package io.qawk.orchestrator.reliability;

import io.qawk.orchestrator.testkit.reliability.*;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 9: SIGKILL at random moments -- and right inside the window between "intent stored" and "hawkBit's answer
 * recorded" -- during deployments in which some systems fail and go back, {@code qawk.chaos.kills} times over
 * (5 by default; 20 with {@code -Dqawk.chaos.kills=20}). After every restart nothing the API showed before the kill
 * may be missing; after every deployment each system is where it should be and hawkBit holds no assignment twice.
 */
class ChaosIT {

    static final int KILLS = Integer.getInteger("qawk.chaos.kills", 5);
    static final long SEED = Long.getLong("qawk.chaos.seed", System.currentTimeMillis());
    static final int SYSTEMS = Integer.getInteger("qawk.chaos.systems", 6);
    static final int FAILING_PER_ROUND = 2;
    static final int MAX_KILLS_PER_ROUND = 3;

    /** When a kill comes: at a random moment, right after any intent is stored, or right after a rollback intent. */
    enum KillMode {
        RANDOM, INTENT, ROLLBACK_INTENT;

        /** Waits for this mode's moment in deployment {@code id}; false when it did not come (the deployment ended). */
        boolean awaitMoment(Probe probe, int id) {
            return switch (this) {
                case RANDOM -> {
                    HardStopIT.pauseRandomly(500, 6000);
                    yield true;
                }
                case INTENT -> probe.awaitIntent(id, List.of("ASSIGNING", "ROLLBACK_ASSIGNING"), Duration.ofSeconds(30));
                case ROLLBACK_INTENT -> probe.awaitIntent(id, List.of("ROLLBACK_ASSIGNING"), Duration.ofSeconds(30));
            };
        }
    }

    static ReliabilityPostgres pg;
    static ServiceProcess service;
    static Probe probe;

    @BeforeAll
    static void start() {
        pg = ReliabilityPostgres.start("chaos");
        probe = new Probe(pg);
        service = ServiceProcess.start("chaos", pg.jdbcUrl(), SharedHawkbit.get());
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
        if (probe != null) {
            probe.close();
        }
        if (pg != null) {
            pg.close();
        }
    }

    @Test
    void killedAgainAndAgainItAssignsNothingTwiceAndLosesNothing() throws IOException {
        Instant t0 = Instant.now();
        Random random = new Random(SEED);
        System.out.printf("[chaos] %d kills, seed %d (-Dqawk.chaos.seed=%d repeats the choices)%n", KILLS, SEED, SEED);
        List<String> problems = new ArrayList<>();
        List<String> killLog = new ArrayList<>();
        Map<KillMode, Integer> killsByMode = new EnumMap<>(KillMode.class);
        int kills = 0;
        int rounds = 0;
        int runs = 0;
        int rolledBack = 0;
        int runDevices = 0;
        int events = 0;
        int actionsChecked = 0;
        int duplicates = 0;
        int onNeither = 0;
        int lost = 0;
        int recovered = 0;
        List<Long> roundSeconds = new ArrayList<>();

        try (RelLanes lanes = new RelLanes("rel-chaos-", SharedHawkbit.get(), RelLanes.LANE)) {
            QawkApi api = service.api();
            for (int i = 1; i <= SYSTEMS; i++) {
                lanes.system(String.format("lane-%02d", i), "c0" + (1 + i % 2));
            }
            int type = lanes.createType(api);
            lanes.awaitDiscovered(api, type);
            lanes.preinstall(1);
            Map<String, Long> running = new HashMap<>();
            lanes.allDevices().forEach(id -> running.put(id, lanes.setFor(id, 1)));

            while (kills < KILLS && rounds < KILLS * 2 + 2) {
                rounds++;
                Instant roundStart = Instant.now();
                int version = rounds + 1;
                List<String> systems = lanes.systemNames();
                Set<String> failing = new LinkedHashSet<>();
                while (failing.size() < FAILING_PER_ROUND) {
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
                int manifest = lanes.manifest(api, type, version);
                Map<String, Long> baseline = lanes.actionBaseline();
                int id = api.deploy("rel-chaos-" + version, manifest, systems,
                        "\"maxParallel\": 3, \"maxFailed\": 100, \"byCentre\": false");
                List<Census> seen = new ArrayList<>();

                for (int k = 0; k < MAX_KILLS_PER_ROUND && kills < KILLS; k++) {
                    KillMode mode = KillMode.values()[kills % KillMode.values().length];
                    Census before = Census.read(api, id);
                    if (!"RUNNING".equals(api.state(id))) {
                        break; // this deployment is over: the remaining kills go to the next one
                    }
                    boolean hit = mode.awaitMoment(probe, id);
                    if (!hit) {
                        continue; // no such moment came: the deployment is probably over
                    }
                    if (mode != KillMode.RANDOM) {
                        HardStopIT.pauseRandomly(0, 250); // sometimes before hawkBit got the call, sometimes after
                    }
                    service.kill();
                    kills++;
                    killsByMode.merge(mode, 1, Integer::sum);
                    String line = String.format("kill %2d  round %d  %-15s %5.1f s into the deployment; committed then: %s",
                            kills, rounds, mode, Duration.between(roundStart, Instant.now()).toMillis() / 1000.0,
                            probe.deviceStates(id));
                    killLog.add(line);
                    System.out.println("[chaos] " + line);
                    service.restart();
                    Census after = Census.read(api, id);
                    List<String> gone = before.lostIn(after);
                    lost += gone.size();
                    gone.forEach(g -> problems.add("round " + version + ", kill " + line + ": " + g));
                    seen.add(before);
                }

                try {
                    await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
                            .until(() -> api.deployment(id).getString("state").matches("FINISHED|FAILED|ABORTED"));
                } catch (ConditionTimeoutException stuck) {
                    problems.add("round " + version + ": deployment " + id + " did not end: " + api.deployment(id).getString("summary")
                            + "; device states " + probe.deviceStates(id));
                    break;
                }
                String state = api.state(id);
                if (!"FINISHED".equals(state)) {
                    problems.add("round " + version + ": deployment ended " + state);
                }
                Census end = Census.read(api, id);
                for (Census c : seen) {
                    List<String> gone = c.lostIn(end);
                    lost += gone.size();
                    gone.forEach(g -> problems.add("round " + version + " (at the end): " + g));
                }
                DeploymentCheck.Result r = DeploymentCheck.check(api, lanes, id, baseline, running, failing);
                r.problems().forEach(p -> problems.add("round " + version + ": " + p));
                actionsChecked += r.actionsChecked();
                duplicates += r.duplicates();
                onNeither += r.onNeitherSet();
                runs += end.runs();
                runDevices += end.runDevices();
                events += end.events();
                for (Map<String, Object> run : api.runs(id)) {
                    if ("ROLLED_BACK".equals(run.get("state"))) {
                        rolledBack++;
                    }
                    recovered += (int) api.events(id, QawkApi.runId(run)).stream()
                            .filter(e -> "RECOVERED".equals(e.get("type"))).count();
                    boolean back = "ROLLED_BACK".equals(run.get("state"));
                    for (Map<String, Object> d : QawkApi.devices(run)) {
                        if (!back) {
                            running.put((String) d.get("controllerId"), ((Number) d.get("toSetId")).longValue());
                        }
                    }
                }
                long secs = Duration.between(roundStart, Instant.now()).toSeconds();
                roundSeconds.add(secs);
                System.out.printf("[chaos] round %d (deployment %d, v%d, failing %s): %s in %d s, %d problem(s) so far%n",
                        rounds, id, version, failing, api.deployment(id).getString("summary"), secs, problems.size());
            }

            String summary = summary(kills, killsByMode, rounds, runs, rolledBack, runDevices, events, actionsChecked,
                    duplicates, onNeither, lost, recovered, problems.size(), roundSeconds, service,
                    Duration.between(t0, Instant.now()).toSeconds(), killLog);
            System.out.println(summary);
            Path out = ReliabilityPostgres.outputDir().resolve("chaos-summary.txt");
            Files.writeString(out, summary + (problems.isEmpty() ? "" : "\nPROBLEMS\n" + String.join("\n", problems) + "\n"),
                    StandardCharsets.UTF_8);

            assertThat(problems).as("problems (see %s)", out).isEmpty();
            assertThat(duplicates).isZero();
            assertThat(onNeither).isZero();
            assertThat(lost).isZero();
            assertThat(kills).isEqualTo(KILLS);
        }
    }

    private static String summary(int kills, Map<KillMode, Integer> byMode, int rounds, int runs, int rolledBack,
                                  int runDevices, int events, int actions, int duplicates, int onNeither, int lost, int recovered,
                                  int problems, List<Long> roundSeconds, ServiceProcess service, long totalSeconds,
                                  List<String> killLog) {
        StringBuilder sb = new StringBuilder();
        sb.append("Qawk chaos run (seed ").append(SEED).append(")\n");
        sb.append(String.format("%-44s %s%n", "kill -9 (SIGKILL) of the service", kills + "  " + byMode));
        sb.append(String.format("%-44s %d%n", "deployments (each with rollbacks)", rounds));
        sb.append(String.format("%-44s %d (%d rolled back)%n", "system runs", runs, rolledBack));
        sb.append(String.format("%-44s %d%n", "run devices (photographed)", runDevices));
        sb.append(String.format("%-44s %d%n", "run events", events));
        sb.append(String.format("%-44s %d%n", "hawkBit assignments checked", actions));
        sb.append(String.format("%-44s %d%n", "intents recovered from hawkBit (RECOVERED)", recovered));
        sb.append(String.format("%-44s %d%n", "duplicate assignments found", duplicates));
        sb.append(String.format("%-44s %d%n", "devices on neither manifest nor photo set", onNeither));
        sb.append(String.format("%-44s %d%n", "runs/devices/events lost", lost));
        sb.append(String.format("%-44s %d%n", "other problems", problems));
        sb.append(String.format("%-44s %s%n", "seconds per deployment", roundSeconds));
        sb.append(String.format("%-44s %s%n", "service start times", service.startTimes().stream()
                .map(d -> String.format("%.1fs", d.toMillis() / 1000.0)).toList()));
        sb.append(String.format("%-44s %d s%n", "whole test", totalSeconds));
        sb.append("kills:\n");
        killLog.forEach(l -> sb.append("  ").append(l).append('\n'));
        return sb.toString();
    }
}
