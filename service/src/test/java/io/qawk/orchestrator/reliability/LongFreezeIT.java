package io.qawk.orchestrator.reliability;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.ProcessFreeze;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testkit.reliability.DeploymentCheck;
import io.qawk.orchestrator.testkit.reliability.Probe;
import io.qawk.orchestrator.testkit.reliability.QawkApi;
import io.qawk.orchestrator.testkit.reliability.RelLanes;
import io.qawk.orchestrator.testkit.reliability.ReliabilityPostgres;
import io.qawk.orchestrator.testkit.reliability.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 32's long run (off by default: {@code -Dqawk.freeze.seconds=180} turns it on): against a 60 s order timeout
 * ({@code -Dqawk.freeze.order-timeout}), three deployments of six lanes (24 devices) are each interrupted once, while
 * order 1 is out, for the given time: hawkBit frozen (SIGSTOP), Qawk killed (SIGKILL) and started again after that
 * long, Qawk frozen (SIGSTOP). The devices install as they would (1–10 s), so each interruption catches some at it
 * and some done, some systems in order 1 and some in order 2. Each deployment must end with every system updated,
 * none rolled back, no set given twice, and every system under way then names the gap in its timeline. The summary
 * goes to {@code target/reliability/long-freeze-summary.txt}.
 */
class LongFreezeIT {

    static final int SECONDS = Integer.getInteger("qawk.freeze.seconds", 0);
    static final int ORDER_TIMEOUT = Integer.getInteger("qawk.freeze.order-timeout", 60);
    static final long SEED = Long.getLong("qawk.freeze.seed", System.currentTimeMillis());

    static ReliabilityPostgres pg;
    static ServiceProcess service;
    static Probe probe;

    /** What stops watching, and how. */
    enum Interruption { HAWKBIT_FROZEN, QAWK_KILLED, QAWK_FROZEN }

    @BeforeAll
    static void start() {
        Assumptions.assumeTrue(SECONDS > 0, "long freeze run off; -Dqawk.freeze.seconds=180 turns it on");
        pg = ReliabilityPostgres.start("long-freeze");
        probe = new Probe(pg);
        service = ServiceProcess.start("long-freeze", pg.jdbcUrl(), SharedHawkbit.get());
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[]{service, probe, pg}) {
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
    void interruptionsLongerThanTheOrderTimeoutRollNothingBack() throws Exception {
        Random random = new Random(SEED);
        Duration length = Duration.ofSeconds(SECONDS);
        List<String> summary = new ArrayList<>();
        summary.add(String.format("long freeze run: %d s interruptions, order timeout %d s, seed %d", SECONDS,
                ORDER_TIMEOUT, SEED));
        try (RelLanes lanes = new RelLanes("rel-longfreeze-", SharedHawkbit.get(), RelLanes.LANE)) {
            QawkApi api = service.api();
            for (int i = 1; i <= 6; i++) {
                lanes.system("lane-0" + i, "c01");
            }
            int type = lanes.createType(api);
            lanes.awaitDiscovered(api, type);
            lanes.preinstall(1);
            int version = 1;
            for (Interruption interruption : Interruption.values()) {
                version++;
                Map<String, Long> ranBefore = new HashMap<>();
                int from = version - 1;
                lanes.allDevices().forEach(d -> ranBefore.put(d, lanes.setFor(d, from)));
                lanes.allDevices().forEach(d -> lanes.behaviour(d,
                        Behaviour.succeedAfter(Duration.ofMillis(1000 + random.nextInt(9000)))));
                Map<String, Long> baseline = lanes.actionBaseline();
                int id = api.deploy("rel-longfreeze-" + version, lanes.manifest(api, type, version), lanes.systemNames(),
                        "\"maxParallel\": 6, \"orderTimeoutSeconds\": " + ORDER_TIMEOUT);
                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
                        .until(() -> probe.deviceStates(id).getOrDefault("ASSIGNED", 0) > 0);
                Map<String, Integer> then = probe.deviceStates(id);
                Instant t0 = Instant.now();
                interrupt(interruption, length);
                Duration interrupted = Duration.between(t0, Instant.now());

                await().atMost(length.plusSeconds(300)).pollInterval(Duration.ofSeconds(1))
                        .until(() -> Set.of("FINISHED", "FAILED").contains(api.state(id)));
                String outcome = api.deployment(id).getString("summary");
                DeploymentCheck.Result check = DeploymentCheck.check(api, lanes, id, baseline, ranBefore, Set.of());
                long named = Gaps.messages(api, id).values().stream().filter(m -> Gaps.gap(m).isPresent()).count();
                String line = String.format("%-14s %d s (devices then: %s): %s; %d of 6 timelines name the gap;"
                                + " %d actions checked, %d duplicates, problems %s", interruption,
                        interrupted.toSeconds(), then, outcome, named, check.actionsChecked(), check.duplicates(),
                        check.problems());
                summary.add(line);
                System.out.println("[long-freeze] " + line);
                assertThat(outcome).as(Gaps.reasons(api, id)).isEqualTo("6 of 6 updated, 0 rolled back");
                assertThat(check.problems()).isEmpty();
                assertThat(check.duplicates()).isZero();
                assertThat(named).as("systems whose timeline names the gap").isPositive();
            }
        } finally {
            Files.write(ReliabilityPostgres.outputDir().resolve("long-freeze-summary.txt"), summary);
        }
    }

    /** Stops watching for {@code length}: the waiting is the test (the interruption must last that long). */
    private static void interrupt(Interruption interruption, Duration length) {
        switch (interruption) {
            case HAWKBIT_FROZEN -> {
                try (ProcessFreeze frozen = SharedHawkbit.get().freeze()) {
                    await().during(length).atMost(length.plusSeconds(30)).pollInterval(Duration.ofSeconds(5))
                            .until(frozen::isFrozen);
                }
            }
            case QAWK_KILLED -> {
                service.kill();
                await().during(length).atMost(length.plusSeconds(30)).pollInterval(Duration.ofSeconds(5))
                        .until(() -> !service.isAlive());
                service.restart();
            }
            case QAWK_FROZEN -> {
                try (ProcessFreeze frozen = service.frozen()) {
                    await().during(length).atMost(length.plusSeconds(30)).pollInterval(Duration.ofSeconds(5))
                            .until(frozen::isFrozen);
                }
            }
        }
    }
}
