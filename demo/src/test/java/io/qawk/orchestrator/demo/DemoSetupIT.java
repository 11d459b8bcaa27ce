package io.qawk.orchestrator.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testkit.HawkbitServer;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testkit.reliability.ReliabilityPostgres;
import io.qawk.orchestrator.testkit.reliability.ServiceProcess;

/**
 * The demo's data as a newcomer meets it (issue 40): {@link DemoSetup} run against the packaged service on an
 * embedded Postgres and a real hawkBit, as {@code ./mvnw -Pdemo} runs it. The system type carries its rule, the
 * manifest follows it (and one with the order backwards is refused), and the rollout the demo leaves waiting in
 * hawkBit is listed by the running service at {@code GET /qawk/v1/threats} with every lane it would break, watched,
 * not started.
 */
class DemoSetupIT {

    static HawkbitServer hawkbit;
    static ReliabilityPostgres postgres;
    static ServiceProcess service;
    static QawkApi qawk;
    static DemoSetup setup;
    static long setUpSeconds;

    @BeforeAll
    static void start() {
        hawkbit = SharedHawkbit.get();
        postgres = ReliabilityPostgres.start("demo-setup");
        service = ServiceProcess.start("demo-setup", postgres.jdbcUrl(), hawkbit);
        qawk = new QawkApi(service.baseUrl(), "admin", ServiceProcess.ADMIN_PASSWORD);
        setup = new DemoSetup(new DemoSetup.Hawkbit(hawkbit.baseUrl(), hawkbit.user(), hawkbit.password(),
                hawkbit.tenant()), qawk, service.baseUrl());
        long t0 = System.nanoTime();
        setup.setUp();
        setUpSeconds = (System.nanoTime() - t0) / 1_000_000_000L;
        System.out.printf("[demo-setup] the demo's set-up took %d s%n", setUpSeconds);
    }

    @AfterAll
    static void stop() {
        if (setup != null) {
            setup.close();
        }
        if (service != null) {
            service.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    private static long typeId() {
        for (JsonNode t : qawk.get("/qawk/v1/systemtypes")) {
            if (DemoLanes.SYSTEM_TYPE.equals(t.path("name").asText())) {
                return t.path("id").asLong();
            }
        }
        throw new AssertionError("no system type " + DemoLanes.SYSTEM_TYPE);
    }

    private static List<String> lanes() {
        return IntStream.rangeClosed(1, DemoLanes.LANES).mapToObj(DemoLanes::lane).toList();
    }

    @Test
    void theSystemTypeHasItsRuleAndTheManifestFollowsIt() {
        JsonNode type = qawk.get("/qawk/v1/systemtypes/" + typeId());
        assertThat(type.path("guard").asText()).isEqualTo("watch");
        assertThat(type.path("rules")).hasSize(2);
        JsonNode rule = type.path("rules").get(0);
        assertThat(rule.path("if").path("device2").asText()).isEqualTo("device2-fw:[2.0,)");
        assertThat(rule.path("then").path("device1").asText()).isEqualTo("app:[2.0,)");
        assertThat(rule.path("why").asText()).isEqualTo(DemoLanes.WHY);
        JsonNode display = type.path("rules").get(1);
        assertThat(display.path("if").path("device3").asText()).isEqualTo("device3-fw:[2.0,)");
        assertThat(display.path("then").path("device2").asText()).isEqualTo("device2-fw:[2.0,)");

        JsonNode manifest = null;
        for (JsonNode m : qawk.get("/qawk/v1/manifests")) {
            if (DemoLanes.MANIFEST.equals(m.path("name").asText())) {
                manifest = m;
            }
        }
        assertThat(manifest).as("the manifest %s was accepted", DemoLanes.MANIFEST).isNotNull();
        Map<String, Integer> orders = new LinkedHashMap<>();
        manifest.path("components").forEach(c -> orders.put(c.path("componentType").asText(), c.path("order").asInt()));
        assertThat(orders).isEqualTo(Map.of("device1", 1, "device2", 2, "device3", 3));

        // the order the other way round breaks the rule: refused, with the order that works
        List<Map<String, Object>> backwards = new ArrayList<>();
        HawkbitFixtures fixtures = new HawkbitFixtures(hawkbit);
        backwards.add(Map.of("componentType", "device2", "order", 1, "distributionSetId",
                fixtures.findDistributionSet("device2-fw", "2.0").orElseThrow()));
        backwards.add(Map.of("componentType", "device1", "order", 2, "distributionSetId",
                fixtures.findDistributionSet("app", "2.0").orElseThrow()));
        Map<String, Object> body = Map.of("name", "backwards", "systemTypeId", typeId(), "components", backwards);
        assertThatThrownBy(() -> qawk.post("/qawk/v1/manifests", body)).satisfies(e -> System.out.printf(
                        "[demo-setup] the manifest with the order backwards: %s%n", e.getMessage()))
                .hasMessageContaining("answered 400")
                .hasMessageContaining("rules[0]").hasMessageContaining(DemoLanes.WHY)
                .hasMessageContaining("put device2 after device1: order 3");
    }

    @Test
    void theRolloutWaitingInHawkbitIsListedAsAThreatToEveryLaneWithTheRuleItBreaks() {
        HawkbitFixtures fixtures = new HawkbitFixtures(hawkbit);
        long typeId = typeId();
        JsonNode[] found = new JsonNode[1];
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            JsonNode page = qawk.get("/qawk/v1/threats?systemTypeId=" + typeId);
            found[0] = null;
            page.path("content").forEach(t -> {
                if ("rollout".equals(t.path("source").asText())
                        && DemoLanes.ROLLOUT.name().equals(t.path("name").asText())) {
                    found[0] = t;
                }
            });
            assertThat(found[0]).as("the rollout among the threats: %s", page).isNotNull();
            assertThat(found[0].path("systems")).hasSize(DemoLanes.LANES);
        });
        JsonNode threat = found[0];
        System.out.printf("[demo-setup] GET /qawk/v1/threats?systemTypeId=%d lists %s%n", typeId, threat.toPrettyString());
        assertThat(threat.path("status").asText()).isEqualTo("ready");
        assertThat(threat.path("action").asText()).as("guard: watch holds nothing").isEqualTo("watched");
        assertThat(threat.path("distributionSet").path("name").asText()).isEqualTo("device2-fw:2.0");

        List<String> systems = new ArrayList<>();
        for (JsonNode s : threat.path("systems")) {
            String lane = s.path("system").asText();
            systems.add(lane);
            assertThat(s.path("systemType").asText()).isEqualTo(DemoLanes.SYSTEM_TYPE);
            assertThat(s.path("guard").asText()).isEqualTo("watch");
            List<String> members = new ArrayList<>();
            s.path("members").forEach(m -> members.add(m.asText()));
            assertThat(members).as(lane).containsExactlyInAnyOrder(lane + "-term-1", lane + "-term-2");
            assertThat(s.path("wouldRun").path("device1").toString()).as(lane).isEqualTo("[\"app:1.0\"]");
            assertThat(s.path("wouldRun").path("device2").toString()).as(lane).isEqualTo("[\"device2-fw:2.0\"]");
            assertThat(s.path("breaks").path("rule").asInt(-1)).as(lane).isZero();
            assertThat(s.path("breaks").path("reason").asText()).as(lane).contains("rules[0]", "app:1.0",
                    "device2-fw:2.0", DemoLanes.WHY);
        }
        assertThat(systems).containsExactlyInAnyOrderElementsOf(lanes());
        assertThat(systems).as("the stray terminal is in no system").doesNotContain(DemoLanes.STRAY_DEVICE);

        // made through hawkBit's Management API and left alone: still waiting, nothing assigned to a terminal
        JsonNode rollout = fixtures.rollout(threat.path("hawkbitId").asLong());
        assertThat(rollout.path("name").asText()).isEqualTo(DemoLanes.ROLLOUT.name());
        assertThat(rollout.path("status").asText()).isEqualTo("ready");
        for (String lane : lanes()) {
            for (String terminal : List.of(lane + "-term-1", lane + "-term-2")) {
                assertThat(fixtures.actions(terminal)).as(terminal + "'s actions: its 1.0 install alone")
                        .singleElement().satisfies(a -> assertThat(a.path("status").asText()).isEqualTo("finished"));
            }
        }
        assertThat(qawk.get("/qawk/v1/threats/holds?systemTypeId=" + typeId).path("content")).as("no holds")
                .isEmpty();
    }

    @Test
    void theDriftedLaneIsBrokenInTheCensusAndADeploymentWouldHoldItWhileItTakesTheOthers() {
        long typeId = typeId();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            JsonNode broken = qawk.get("/qawk/v1/systemtypes/" + typeId + "/systems?broken=true").path("content");
            assertThat(broken).as("broken systems").hasSize(1);
            assertThat(broken.get(0).path("system").asText()).isEqualTo(DemoLanes.DRIFTED_SYSTEM);
            assertThat(broken.get(0).path("broken").path("rule").asInt(-1)).isEqualTo(1);
            assertThat(broken.get(0).path("broken").path("reason").asText()).contains("device3-fw:2.0",
                    "device2-fw:1.0", DemoLanes.DISPLAY_WHY);
        });

        long manifestId = -1;
        for (JsonNode m : qawk.get("/qawk/v1/manifests")) {
            if (DemoLanes.MANIFEST.equals(m.path("name").asText())) {
                manifestId = m.path("id").asLong();
            }
        }
        String centre = DemoLanes.centreOf(Integer.parseInt(DemoLanes.DRIFTED_SYSTEM.substring("device-".length())));
        JsonNode plan = qawk.post("/qawk/v1/systemdeployments/plan",
                Map.of("name", "2.0 to " + centre, "manifestId", manifestId, "groups", List.of(centre)));
        System.out.printf("[demo-setup] the plan of 2.0 to %s: %s%n", centre, plan.path("systems"));
        Map<String, JsonNode> bySystem = new LinkedHashMap<>();
        plan.path("systems").forEach(s -> bySystem.put(s.path("system").asText(), s));
        List<String> inCentre = lanes().stream()
                .filter(l -> DemoLanes.centreOf(Integer.parseInt(l.substring("device-".length()))).equals(centre))
                .toList();
        assertThat(bySystem.keySet()).containsExactlyInAnyOrderElementsOf(inCentre);
        bySystem.forEach((system, s) -> {
            if (system.equals(DemoLanes.DRIFTED_SYSTEM)) {
                assertThat(s.path("held").asBoolean()).as(system).isTrue();
                assertThat(s.path("waiting").asText()).as(system).startsWith("held: " + system + " would run ")
                        .contains("rules[1]", DemoLanes.DISPLAY_WHY);
            } else {
                assertThat(s.path("held").asBoolean()).as(system).isFalse();
            }
        });
    }
}
