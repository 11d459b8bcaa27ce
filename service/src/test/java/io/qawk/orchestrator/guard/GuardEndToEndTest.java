package io.qawk.orchestrator.guard;

import com.fasterxml.jackson.databind.JsonNode;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * The guard against a real hawkBit with simulated lanes, the rule "terminal firmware 2 needs app 2": a colleague's
 * rollout over all terminals, created in hawkBit, is listed before it starts with the systems it would break and the
 * rule; a rollout over devices in no system is not; with {@code guard: hold} a started rollout is paused and its
 * actions on members cancelled before any slow terminal finishes, an assignment by hand is cancelled, and an
 * auto-assignment over members is switched off, its set given back with one command.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GuardEndToEndTest {

    static final String WHY = "fw 2 speaks only to app 2";
    static final List<String> SYSTEMS = List.of("s1", "s2", "s3");
    private Lanes lanes;
    private String p;

    @BeforeEach
    void threeLanesOnOne() {
        if (lanes != null) {
            return;
        }
        lanes = new Lanes("grd-").withSetsAndType();
        p = lanes.prefix;
        type("watch");
        SYSTEMS.forEach(s -> lanes.system(s, "c01"));
        lanes.discovered(3);
        lanes.preinstall("1");
        lanes.device("solo-1", Map.of("device_type", "solo"));
        lanes.device("solo-2", Map.of("device_type", "solo"));
        Lanes.sync();
        // installs take long from here on: what the guard stops must not have finished before it acts
        for (String s : SYSTEMS) {
            lanes.behaviour(s, "term-a", Behaviour.succeedAfter(Duration.ofSeconds(90)));
            lanes.behaviour(s, "term-b", Behaviour.succeedAfter(Duration.ofSeconds(90)));
        }
    }

    @AfterAll
    void stop() {
        lanes.close();
    }

    private void type(String guard) {
        lanes.firmwareNeedsApp(WHY, guard);
    }

    private String terminals() {
        return "attribute.device_type==" + p + "terminal";
    }

    private JsonPath threats(String query) {
        return Api.viewer().get("/qawk/v1/threats?systemTypeId=" + lanes.typeId + query)
                .then().statusCode(200).extract().jsonPath();
    }

    /** The threat of this hawkBit object, as the API lists it after a sync. */
    private Map<String, Object> threat(String source, long hawkbitId) {
        List<Map<String, Object>> all = threats("").getList("content");
        return all.stream().filter(t -> source.equals(t.get("source"))
                && ((Number) t.get("hawkbitId")).longValue() == hawkbitId).findFirst().orElse(null);
    }

    private JsonPath holds() {
        return Api.viewer().get("/qawk/v1/threats/holds?systemTypeId=" + lanes.typeId)
                .then().statusCode(200).extract().jsonPath();
    }

    private List<String> allTerminals() {
        List<String> ids = new ArrayList<>();
        SYSTEMS.forEach(s -> {
            ids.add(lanes.id(s, "term-a"));
            ids.add(lanes.id(s, "term-b"));
        });
        return ids;
    }

    private boolean hasOpenAction(String controllerId) {
        return lanes.hawkbit.actions(controllerId).stream()
                .anyMatch(a -> "pending".equals(a.path("status").asText()) || a.path("active").asBoolean(false));
    }

    /** Waits until no terminal has an open action, then checks that every terminal still runs term:1. */
    private void terminalsStayOnOne() {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(allTerminals()).noneMatch(this::hasOpenAction));
        for (String t : allTerminals()) {
            assertThat(lanes.installedSetId(t)).as(t).isEqualTo(lanes.set("term:1"));
        }
    }

    private void awaitRollout(long id, String status) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                .until(() -> status.equals(lanes.hawkbit.rollout(id).path("status").asText()));
    }

    @Test
    @Order(1)
    void aRolloutOverTerminalsIsListedBeforeItStartsWithItsSystemsAndTheRule() {
        long rollout = lanes.hawkbit.createRollout(p + "terminals-2.0", lanes.set("term:2"), terminals(), 1);
        awaitRollout(rollout, "ready");
        Lanes.sync();

        Map<String, Object> t = threat("rollout", rollout);
        assertThat(t).as("the rollout is listed before it starts").isNotNull();
        assertThat(t.get("name")).isEqualTo(p + "terminals-2.0");
        assertThat(t.get("status")).isEqualTo("ready");
        assertThat(t.get("action")).isEqualTo("watched");
        assertThat(((Map<?, ?>) t.get("distributionSet")).get("name")).isEqualTo(p + "term:2");
        List<Map<String, Object>> systems = cast(t.get("systems"));
        assertThat(systems).extracting(s -> s.get("system")).containsExactlyInAnyOrder("s1", "s2", "s3");
        Map<String, Object> s1 = systems.stream().filter(s -> s.get("system").equals("s1")).findFirst().orElseThrow();
        assertThat(s1.get("systemType")).isEqualTo(p + "lane");
        assertThat(cast(s1.get("members"))).containsExactlyInAnyOrder(p + "s1-term-a", p + "s1-term-b");
        assertThat((Map<?, ?>) s1.get("wouldRun")).isEqualTo(Map.of("lane", List.of(p + "app:1"),
                "terminal", List.of(p + "term:2"), "display", List.of(p + "disp:1")));
        Map<?, ?> breaks = (Map<?, ?>) s1.get("breaks");
        assertThat(breaks.get("rule")).isEqualTo(0);
        assertThat((String) breaks.get("reason")).contains("rules[0]", p + "term:2", p + "app:1", WHY);

        assertThat(threats("&source=rollout").getList("content.hawkbitId", Long.class)).contains(rollout);
        assertThat(threats("&source=assignment").getList("content.hawkbitId", Long.class)).doesNotContain(rollout);
        Api.viewer().get("/qawk/v1/threats?source=bogus").then().statusCode(400)
                .contentType("application/problem+json").body(containsString("source"));
        Api.viewer().get("/q/metrics").then().statusCode(200)
                .body(containsString("qawk_threats{source=\"rollout\",system_type=\"" + p + "lane\"}"));
        assertThat(allTerminals()).as("watching moves nothing").noneMatch(this::hasOpenAction);

        lanes.hawkbit.deleteRollout(rollout);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Lanes.sync();
            assertThat(threat("rollout", rollout)).as("a deleted rollout is no threat").isNull();
        });
    }

    @Test
    @Order(2)
    void aRolloutOverDevicesInNoSystemIsNoThreat() {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300)).until(() ->
                lanes.hawkbit.findTargetIds("attribute.device_type==" + p + "solo").size() == 2);
        long rollout = lanes.hawkbit.createRollout(p + "solo-2.0", lanes.set("term:2"),
                "attribute.device_type==" + p + "solo", 1);
        awaitRollout(rollout, "ready");
        assertThat(lanes.hawkbit.rollout(rollout).path("totalTargets").asLong()).isEqualTo(2);
        Lanes.sync();
        List<Long> listed = Api.viewer().get("/qawk/v1/threats").then().statusCode(200).extract().jsonPath()
                .getList("content.hawkbitId", Long.class);
        assertThat(listed).doesNotContain(rollout);
        lanes.hawkbit.deleteRollout(rollout);
    }

    @Test
    @Order(3)
    void withHoldAStartedRolloutIsPausedAndNoMemberEndsOnTheNewSet() {
        type("hold");
        long rollout = lanes.hawkbit.createRollout(p + "terminals-2.0-now", lanes.set("term:2"), terminals(), 1);
        awaitRollout(rollout, "ready");
        lanes.hawkbit.startRollout(rollout);
        awaitRollout(rollout, "running");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                .until(() -> allTerminals().stream().allMatch(this::hasOpenAction));
        Lanes.sync();

        assertThat(lanes.hawkbit.rollout(rollout).path("status").asText()).isEqualTo("paused");
        assertThat(threat("rollout", rollout).get("action")).isEqualTo("held");
        List<Map<String, Object>> holds = holds().getList("content");
        Map<String, Object> pause = holds.stream().filter(h -> "paused".equals(h.get("what"))
                && ((Number) h.get("hawkbitId")).longValue() == rollout).findFirst().orElseThrow();
        assertThat((String) pause.get("reason")).startsWith("paused hawkBit rollout " + p + "terminals-2.0-now: its ")
                .containsPattern(" holds " + p + "(s[123])-term-[ab] of \\1, and then ").contains("rules[0]", WHY);
        assertThat(holds.stream().filter(h -> "cancelled".equals(h.get("what"))
                && ((Number) h.get("hawkbitId")).longValue() == rollout)).hasSize(6);

        JsonPath audit = Api.viewer().get("/qawk/v1/audit?actor=qawk-guard&limit=500").then().statusCode(200)
                .extract().jsonPath();
        assertThat(audit.getList("content.target")).contains("hawkbit/rollouts/" + rollout);
        assertThat(audit.getList("content.detail", String.class)).contains((String) pause.get("reason"));

        terminalsStayOnOne();
        Lanes.sync();
        assertThat(lanes.hawkbit.rollout(rollout).path("status").asText()).as("paused once, still paused")
                .isEqualTo("paused");
        lanes.hawkbit.deleteRollout(rollout);
    }

    @Test
    @Order(4)
    void withHoldAnAssignmentByHandOnAMemberIsCancelled() {
        String device = lanes.id("s2", "term-a");
        lanes.hawkbit.assign(lanes.set("term:2"), List.of(device));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Lanes.sync();
            List<Map<String, Object>> hand = threats("&source=assignment").getList("content");
            assertThat(hand).anySatisfy(t -> {
                assertThat(t.get("name")).isEqualTo("assignment of " + p + "term:2 to " + device);
                assertThat(t.get("action")).isEqualTo("cancelled");
            });
        });
        assertThat(holds().getList("content.reason", String.class))
                .anySatisfy(r -> assertThat(r).startsWith("cancelled hawkBit action ").contains(device, WHY));
        terminalsStayOnOne();
    }

    @Test
    @Order(5)
    void aTargetFilterWithAnAutoAssignedSetOverMembersIsSwitchedOffWithHoldAndGivenBackWithOneCommand() {
        long filter = lanes.hawkbit.createTargetFilter(p + "all terminals", terminals());
        lanes.hawkbit.autoAssign(filter, lanes.set("term:2"));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Lanes.sync();
            Map<String, Object> t = threat("autoAssignment", filter);
            assertThat(t).isNotNull();
            assertThat(t.get("action")).isEqualTo("held");
            assertThat(cast(t.get("systems"))).hasSize(3);
        });
        assertThat(lanes.hawkbit.targetFilter(filter).path("autoAssignDistributionSet").isNull()).isTrue();
        Map<String, Object> off = holds().<Map<String, Object>>getList("content").stream()
                .filter(h -> "switched_off".equals(h.get("what"))).findFirst().orElseThrow();
        assertThat((String) off.get("reason")).startsWith("switched off the auto-assignment of " + p
                + "term:2 on hawkBit target filter " + p + "all terminals: ").contains(WHY);
        terminalsStayOnOne();
        Lanes.sync();
        assertThat(threat("autoAssignment", filter).get("action")).as("still listed, held").isEqualTo("held");

        Api.viewer().post("/qawk/v1/threats/holds/" + off.get("id") + "/release").then().statusCode(403);
        Api.admin().post("/qawk/v1/threats/holds/" + off.get("id") + "/release").then().statusCode(200)
                .body("releasedBy", equalTo("admin"));
        JsonNode back = lanes.hawkbit.targetFilter(filter);
        assertThat(back.path("autoAssignDistributionSet").asLong()).isEqualTo(lanes.set("term:2"));
        Api.admin().post("/qawk/v1/threats/holds/" + off.get("id") + "/release").then().statusCode(409)
                .contentType("application/problem+json");
        Api.admin().post("/qawk/v1/threats/holds/99999999/release").then().statusCode(404);
        lanes.hawkbit.deleteTargetFilter(filter);
    }

    /**
     * A colleague's rollout over all terminals starts while a Qawk deployment takes s1 to 2.0 (its terminals after
     * its lane, as the rule wants): the guard pauses the rollout and cancels its actions on s2 and s3, never one on
     * s1's devices, which Qawk drives; s1 ends on 2.0 and the others stay on 1.
     */
    @Test
    @Order(6)
    void aHeldRolloutMeetingAQawkDeploymentLeavesTheSystemItDrivesToIt() {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Lanes.sync();
            assertThat(allTerminals()).as("nothing left open by the tests before").noneMatch(this::hasOpenAction);
        });
        // s1's terminals finish only once the pause has been seen on the timeline of the run that drives s1
        lanes.behaviour("s1", "term-a", Behaviour.hold());
        lanes.behaviour("s1", "term-b", Behaviour.hold());
        int manifest = Api.admin().body("""
                {"name": "%s2.0 app first", "systemTypeId": %d, "components": [
                  {"componentType": "lane", "distributionSetId": %d, "order": 1},
                  {"componentType": "terminal", "distributionSetId": %d, "order": 2},
                  {"componentType": "display", "distributionSetId": %d, "order": 2}]}
                """.formatted(p, lanes.typeId, lanes.set("app:2"), lanes.set("term:2"), lanes.set("disp:1")))
                .post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
        int deployment = lanes.deploy(manifest, "\"systems\": [\"s1\"]");
        List<String> s1Terminals = List.of(lanes.id("s1", "term-a"), lanes.id("s1", "term-b"));
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(300))
                .until(() -> s1Terminals.stream().allMatch(this::hasOpenAction));

        long rollout = lanes.hawkbit.createRollout(p + "terminals-2.0-meet", lanes.set("term:2"), terminals(), 1);
        awaitRollout(rollout, "ready");
        lanes.hawkbit.startRollout(rollout);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Lanes.sync();
            assertThat(lanes.hawkbit.rollout(rollout).path("status").asText()).isEqualTo("paused");
        });
        List<String> cancelledOn = holds().<Map<String, Object>>getList("content").stream()
                .filter(h -> "cancelled".equals(h.get("what")) && ((Number) h.get("hawkbitId")).longValue() == rollout)
                .map(h -> (String) h.get("reason")).toList();
        assertThat(cancelledOn).as("the rollout's actions cancelled").isNotEmpty()
                .noneMatch(r -> r.contains(p + "s1-"));
        assertThat(cancelledOn).as("each cancellation says what it keeps its own system from")
                .allMatch(r -> r.matches("cancelled hawkBit action \\d+ \\(" + p + "term:2\\) on " + p
                        + "(s[23])-term-[ab] of rollout " + p + "terminals-2.0-meet: " + p + "\\1-term-[ab] runs .*"));

        String pause = holds().<Map<String, Object>>getList("content").stream()
                .filter(h -> "paused".equals(h.get("what")) && ((Number) h.get("hawkbitId")).longValue() == rollout)
                .map(h -> (String) h.get("reason")).findFirst().orElseThrow();
        int s1Run = Lanes.runs(deployment).getInt("find { it.system == 's1' }.id");
        List<Map<String, Object>> timeline = Api.viewer().get("/qawk/v1/systemdeployments/" + deployment + "/runs/"
                + s1Run + "/events").then().statusCode(200).extract().jsonPath().getList("$");
        assertThat(timeline).as("the pause of a rollout over s1's terminals on the timeline of the run that drives s1")
                .anySatisfy(e -> {
                    assertThat(e.get("type")).isEqualTo("GUARD_HOLD");
                    assertThat(e.get("actor")).isEqualTo("qawk-guard");
                    assertThat((String) e.get("message")).startsWith(pause)
                            .contains(p + "s1-term-a", p + "s1-term-b");
                    assertThat(GuardEndToEndTest.<String, Object>map(e.get("data"))).containsEntry("what", "paused")
                            .containsEntry("source", "rollout").containsEntry("hawkbitId", (int) rollout);
                });
        assertThat(Api.viewer().get("/qawk/v1/threats/holds?systemTypeId=" + lanes.typeId + "&system=s2").then()
                .statusCode(200).extract().jsonPath().<Map<String, Object>>getList("content"))
                .as("a system in no run: its holds are its view's list")
                .anySatisfy(h -> assertThat((String) h.get("reason")).contains(p + "s2-term-"));
        lanes.behaviour("s1", "term-a", Behaviour.succeed());
        lanes.behaviour("s1", "term-b", Behaviour.succeed());

        Lanes.awaitState(deployment, "FINISHED", Duration.ofSeconds(150));
        assertThat(Lanes.runs(deployment).getString("find { it.system == 's1' }.state")).isEqualTo("SUCCEEDED");
        for (String t : s1Terminals) {
            assertThat(lanes.installedSetId(t)).as(t).isEqualTo(lanes.set("term:2"));
        }
        assertThat(lanes.installedSetId(lanes.id("s1", "lane"))).isEqualTo(lanes.set("app:2"));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(allTerminals().stream().filter(t -> !s1Terminals.contains(t))).noneMatch(this::hasOpenAction));
        for (String t : allTerminals()) {
            if (!s1Terminals.contains(t)) {
                assertThat(lanes.installedSetId(t)).as(t).isEqualTo(lanes.set("term:1"));
            }
        }
        lanes.hawkbit.deleteRollout(rollout);
    }

    /** The readiness check's details of hawkBit, as a probe reads them. */
    private static Map<String, Object> readiness() {
        return Api.viewer().get("/q/health/ready").then().extract().jsonPath()
                .getMap("checks.find { it.name == 'hawkbit' }.data");
    }

    /**
     * The readiness details say what the guard sees of this hawkBit and what it cannot: 0.3.0M7 has no auto-assignment
     * objects of their own (its auto-assignments are target filters' sets, which the guard reads), and whether the
     * tenant's rollout approval is on.
     */
    @Test
    @Order(7)
    void theReadinessDetailsSayWhatTheGuardSeesOfThisHawkbit() {
        Lanes.sync();
        Map<String, Object> data = readiness();
        assertThat(data).as("readiness details").containsKey("guard");
        assertThat((String) data.get("guardAutoAssignments")).as("auto-assignments on hawkBit 0.3.0M7")
                .startsWith("target filters' auto-assigned sets, read")
                .contains("no auto-assignment objects of its own");
        assertThat((String) data.get("guardRolloutApproval")).as("rollout approval, off by default")
                .startsWith("off");
        assertThat((String) data.getOrDefault("guardCannotSee", "")).doesNotContain("auto-assignment objects");
    }

    /**
     * With hawkBit's rollout approval on, a colleague (who may not approve) creates a rollout over all terminals: it
     * waits for approval, and the guard, for a {@code guard: hold} type, is the approver that refuses it; hawkBit shows
     * it denied, never started, and no terminal moves.
     */
    @Test
    @Order(8)
    void withApprovalOnTheGuardDeniesARolloutWaitingForApproval() {
        type("hold");
        HawkbitFixtures colleague = HawkbitFixtures.asColleague(SharedHawkbit.get());
        lanes.hawkbit.tenantConfig("rollout.approval.enabled", true);
        long rollout = -1;
        try {
            rollout = colleague.createRollout(p + "terminals-2.0-approval", lanes.set("term:2"), terminals(), 1);
            awaitRollout(rollout, "waiting_for_approval");
            long id = rollout;
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                Lanes.sync();
                assertThat(lanes.hawkbit.rollout(id).path("status").asText()).isEqualTo("approval_denied");
            });
            assertThat(threat("rollout", rollout).get("action")).isEqualTo("held");
            Map<String, Object> denied = holds().<Map<String, Object>>getList("content").stream()
                    .filter(h -> "denied".equals(h.get("what")) && ((Number) h.get("hawkbitId")).longValue() == id)
                    .findFirst().orElseThrow();
            assertThat((String) denied.get("reason")).startsWith("denied hawkBit rollout " + p
                    + "terminals-2.0-approval: ").contains("rules[0]", WHY);
            assertThat(lanes.hawkbit.rollout(rollout).path("totalTargetsPerStatus").path("running").asLong())
                    .as("never started").isZero();
            List<String> broken = allTerminals().stream().filter(t -> !t.startsWith(p + "s1-")).toList();
            assertThat(broken).as("no terminal of s2 or s3 got an action").noneMatch(this::hasOpenAction);
            for (String t : broken) {
                assertThat(lanes.installedSetId(t)).as(t).isEqualTo(lanes.set("term:1"));
            }
            assertThat((String) readiness().get("guardRolloutApproval")).as("the readiness details")
                    .startsWith("on: ");
        } finally {
            lanes.hawkbit.tenantConfig("rollout.approval.enabled", false);
            if (rollout >= 0) {
                lanes.hawkbit.deleteRollout(rollout);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <K, V> Map<K, V> map(Object map) {
        return (Map<K, V>) map;
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> cast(Object list) {
        return (List<T>) list;
    }
}
