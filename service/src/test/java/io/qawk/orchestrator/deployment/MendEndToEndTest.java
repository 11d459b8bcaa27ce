package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/**
 * Mending a broken system against a real hawkBit with simulated lanes under "app 2 needs terminals on 2": three lanes
 * on version 1. A set assigned by hand in hawkBit breaks a lane; {@code POST …/systems/{key}/mend} creates a draft of
 * that lane alone with the manifest that mends it (the one it last ran, else the nearest that mends it), its plan
 * says so, and starting it brings the lane back onto the manifest's sets. A system that is not broken, or that no
 * manifest mends, is refused with a 409 that changes nothing.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MendEndToEndTest {

    static final String WHY = "app 2 speaks the v2 terminal protocol";
    private Lanes lanes;
    private String p;
    private int v1;
    private int v2;

    @BeforeEach
    void lanesOnVersionOne() {
        if (lanes != null) {
            return;
        }
        lanes = new Lanes("mnd-").withSetsAndType();
        p = lanes.prefix;
        lanes.appNeedsTerminal(WHY);
        for (String s : List.of("s1", "s2", "s3")) {
            lanes.system(s, "c01");
        }
        lanes.discovered(3);
        lanes.preinstall("1");
        // the new app and display only: it leaves the terminals as they are, so it mends no lane they break
        Api.admin().body("""
                {"name": "%sapp-only-2.0", "systemTypeId": %d, "components": [
                  {"componentType": "display", "distributionSetId": %d, "order": 1},
                  {"componentType": "lane", "distributionSetId": %d, "order": 2}]}
                """.formatted(p, lanes.typeId, lanes.set("disp:2"), lanes.set("app:2")))
                .post("/qawk/v1/manifests").then().statusCode(201);
        Lanes.sync();
    }

    @AfterAll
    void stop() {
        lanes.close();
    }

    private String mendPath(Object typeId, String system) {
        return "/qawk/v1/systemtypes/" + typeId + "/systems/" + system + "/mend";
    }

    private int deploymentCount() {
        return Api.viewer().get("/qawk/v1/systemdeployments").then().statusCode(200).extract().jsonPath()
                .getList("$").size();
    }

    private void assignByHand(String controllerId, String set) {
        lanes.hawkbit.assign(lanes.set(set), List.of(controllerId));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(lanes.hawkbit.installedDsId(controllerId)).contains(lanes.set(set)));
    }

    private JsonPath system(String system) {
        return Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems/" + system).then().statusCode(200)
                .extract().jsonPath();
    }

    @Test
    @Order(1)
    void unknownNotBrokenAndUnmendableAreRefusedAndNothingIsCreated() {
        int before = deploymentCount();

        Api.admin().post(mendPath(999999, "s1")).then().statusCode(404).contentType("application/problem+json")
                .body("detail", equalTo("system type 999999 does not exist"));
        Api.admin().post(mendPath(lanes.typeId, "no-such-lane")).then().statusCode(404)
                .contentType("application/problem+json")
                .body("detail", equalTo("system 'no-such-lane' of system type " + lanes.typeId + " does not exist"));
        Api.admin().urlEncodingEnabled(false).post(mendPath(lanes.typeId, "s%001")).then().statusCode(404)
                .contentType("application/problem+json")
                .body("detail", equalTo("system 's\u00001' of system type " + lanes.typeId + " does not exist"));
        Api.admin().post(mendPath(lanes.typeId, "s1")).then().statusCode(409).contentType("application/problem+json")
                .body("detail", equalTo("s1 is not broken: nothing to mend"));
        Api.viewer().post(mendPath(lanes.typeId, "s1")).then().statusCode(403);

        // s3's lane is given the new app by hand: its terminals still run 1, and the only manifest leaves them so
        assignByHand(lanes.id("s3", "lane"), "app:2");
        Lanes.sync();
        assertThat(system("s3").getInt("broken.rule")).isZero();
        String detail = Api.admin().post(mendPath(lanes.typeId, "s3")).then().statusCode(409)
                .contentType("application/problem+json").extract().path("detail");
        assertThat(detail).startsWith("no manifest of " + p + "lane mends s3: it breaks rules[0]: " + lanes.id("s3", "lane")
                        + " runs " + p + "app:2 with ")
                .contains("(rules[0] needs terminal on " + p + "term:[2,)) — " + WHY)
                .endsWith("none of its 1 manifest(s) gets it onto a mix that keeps the rules, the fix first");

        assertThat(deploymentCount()).isEqualTo(before);
    }

    @Test
    @Order(2)
    void aTerminalMovedByHandIsMendedWithTheManifestTheLaneLastRan() {
        v2 = lanes.manifest("m-2.0", "2");
        v1 = Api.admin().body("""
                {"name": "%sm-1.0", "systemTypeId": %d, "components": [
                  {"componentType": "terminal", "distributionSetId": %d},
                  {"componentType": "display", "distributionSetId": %d},
                  {"componentType": "lane", "distributionSetId": %d}]}
                """.formatted(p, lanes.typeId, lanes.set("term:1"), lanes.set("disp:1"), lanes.set("app:1")))
                .post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
        int update = lanes.deploy(v2, "\"systems\": [\"s1\"]");
        Lanes.awaitState(update, "FINISHED", Duration.ofSeconds(120));
        assertThat(Lanes.runs(update).getString("[0].state")).isEqualTo("SUCCEEDED");

        // a technician gives s1's second terminal the old firmware in hawkBit
        assignByHand(lanes.id("s1", "term-b"), "term:1");
        Lanes.sync();
        assertThat(system("s1").getString("broken.reason")).startsWith(lanes.id("s1", "lane") + " runs " + p
                + "app:2 with " + lanes.id("s1", "term-b") + " on " + p + "term:1");
        int termBActions = lanes.hawkbit.actions(lanes.id("s1", "term-b")).size();
        Instant since = Instant.now().minusSeconds(1);

        ExtractableResponse<Response> created = Api.admin().post(mendPath(lanes.typeId, "s1")).then().statusCode(201)
                .body("name", equalTo("mend s1")).body("manifestId", equalTo(v2))
                .body("manifestName", equalTo(p + "m-2.0")).body("state", equalTo("DRAFT"))
                .body("systems", equalTo(List.of("s1"))).body("startedAt", equalTo(null))
                .body("createdBy", equalTo("admin")).extract();
        int mend = created.path("id");
        assertThat(created.header("Location")).endsWith("/qawk/v1/systemdeployments/" + mend);

        JsonPath plan = Api.viewer().get("/qawk/v1/systemdeployments/" + mend + "/plan").then().statusCode(200)
                .extract().jsonPath();
        assertThat(plan.getString("manifest")).isEqualTo(p + "m-2.0");
        assertThat(plan.getList("systems.system")).containsExactly("s1");
        assertThat(plan.getBoolean("systems[0].held")).isFalse();
        assertThat(plan.getString("systems[0].mends")).startsWith("breaks a rule now and this manifest mends it: "
                + lanes.id("s1", "lane") + " runs " + p + "app:2 with " + lanes.id("s1", "term-b") + " on " + p + "term:1");
        assertThat(plan.getString("systems[0].devices.find { it.controllerId == '" + lanes.id("s1", "term-b") + "' }.gets"))
                .isEqualTo(p + "term:2");
        assertThat(plan.getBoolean("systems[0].devices.find { it.controllerId == '" + lanes.id("s1", "term-b")
                + "' }.alreadyOnIt")).isFalse();
        assertThat(plan.getBoolean("systems[0].devices.find { it.controllerId == '" + lanes.id("s1", "lane")
                + "' }.alreadyOnIt")).isTrue();
        // a draft moves nothing
        assertThat(lanes.hawkbit.actions(lanes.id("s1", "term-b"))).hasSize(termBActions);

        Api.admin().post("/qawk/v1/systemdeployments/" + mend + "/start").then().statusCode(200);
        Lanes.awaitState(mend, "FINISHED", Duration.ofSeconds(120));
        JsonPath runs = Lanes.runs(mend);
        assertThat(runs.getList("system")).containsExactly("s1");
        assertThat(runs.getString("[0].state")).isEqualTo("SUCCEEDED");
        Map<String, String> onV2 = Map.of("lane", "app:2", "term-a", "term:2", "term-b", "term:2", "display", "disp:2");
        onV2.forEach((role, set) -> assertThat(lanes.installedSetId(lanes.id("s1", role))).as("s1 %s", role)
                .isEqualTo(lanes.set(set)));

        Lanes.sync();
        JsonPath mended = system("s1");
        assertThat(mended.getMap("broken")).isNull();
        assertThat(mended.getString("on.name")).isEqualTo(p + "m-2.0");
        Api.admin().post(mendPath(lanes.typeId, "s1")).then().statusCode(409)
                .body("detail", equalTo("s1 is not broken: nothing to mend"));

        List<String> audit = Api.viewer().queryParam("since", since.toString()).queryParam("actor", "admin")
                .queryParam("limit", 500).get("/qawk/v1/audit").then().statusCode(200).extract().jsonPath()
                .getList("content.findAll { it.target.startsWith('systemtypes/') }.collect { it.action + ' ' + it.target }");
        assertThat(audit).containsExactly("mend systemtypes/" + lanes.typeId + "/systems/s1");
    }

    @Test
    @Order(3)
    void aLaneThatNeverRanAManifestGetsTheNearestOneThatMendsIt() {
        // s3 runs app 2 over terminals on 1 (order 1): going back to app 1 changes one device, going on to 2 three
        assertThat(system("s3").getInt("broken.rule")).isZero();

        int mend = Api.admin().post(mendPath(lanes.typeId, "s3")).then().statusCode(201)
                .body("manifestId", equalTo(v1)).body("name", equalTo("mend s3")).extract().path("id");

        JsonPath plan = Api.viewer().get("/qawk/v1/systemdeployments/" + mend + "/plan").then().statusCode(200)
                .extract().jsonPath();
        assertThat(plan.getList("systems.system")).containsExactly("s3");
        assertThat(plan.getBoolean("systems[0].held")).isFalse();
        assertThat(plan.getString("systems[0].mends")).startsWith("breaks a rule now and this manifest mends it: ");
        assertThat(plan.getList("systems[0].devices.findAll { !it.alreadyOnIt }.controllerId"))
                .containsExactly(lanes.id("s3", "lane"));
    }
}
