package io.qawk.orchestrator.audit;

import io.qawk.orchestrator.security.SignInProfile;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.keycloak.KeycloakServer;
import io.qawk.orchestrator.testkit.keycloak.SharedKeycloak;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItems;

/**
 * Issue 34, who did what: commands given by two people signed in through the identity provider (a real Keycloak) are
 * listed in the audit with their names, in order, and the timeline entries they caused and the deployment name them.
 */
@QuarkusTest
@TestProfile(SignInProfile.class)
class AuditEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    static RequestSpecification as(String token) {
        return RestAssured.given().auth().preemptive().oauth2(token).contentType(ContentType.JSON);
    }

    @Test
    void aStartARollbackByHandAndAnAbortByTwoPeopleAreListedWithTheirNamesInOrder() {
        KeycloakServer keycloak = SharedKeycloak.get();
        String alice = keycloak.userToken("alice");
        String bob = keycloak.userToken("bob");
        Instant since = Instant.now().minus(1, ChronoUnit.SECONDS);
        try (Lanes lanes = new Lanes("audit-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01");
            // lane-01 stays under way (its terminal takes ten minutes), so lane-02 waits
            lanes.behaviour("lane-01", "term-a", Behaviour.succeedAfter(Duration.ofMinutes(10)));
            lanes.discovered(2);
            int manifest = lanes.manifest("2.0", "2");
            int id = as(alice).body("{\"name\": \"audit-deployment\", \"manifestId\": " + manifest
                    + ", \"maxParallel\": 1}").post("/qawk/v1/systemdeployments").then().statusCode(201)
                    .extract().path("id");
            as(alice).post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(200);
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(300))
                    .until(() -> "RUNNING".equals(run(id, "lane-01").get("state")));
            long first = ((Number) run(id, "lane-01").get("id")).longValue();
            long second = ((Number) run(id, "lane-02").get("id")).longValue();
            as(bob).body("{\"reason\": \"lane 1 is not scoring\"}")
                    .post("/qawk/v1/systemdeployments/" + id + "/runs/" + first + "/rollback").then().statusCode(200);
            as(alice).post("/qawk/v1/systemdeployments/" + id + "/abort").then().statusCode(200);

            JsonPath deployment = Lanes.deployment(id);
            assertThat(deployment.getString("createdBy")).isEqualTo("alice");
            assertThat(deployment.getString("startedBy")).isEqualTo("alice");
            assertThat(deployment.getString("abortedBy")).isEqualTo("alice");

            String target = "systemdeployments/" + id;
            List<Map<String, Object>> mine = Api.viewer().queryParam("since", since.toString()).queryParam("limit", 500)
                    .get("/qawk/v1/audit").then().statusCode(200).extract().jsonPath().getList("content");
            List<String> lines = mine.stream().filter(e -> String.valueOf(e.get("target")).startsWith(target))
                    .map(e -> e.get("actor") + " " + e.get("action") + " " + e.get("target")).toList();
            assertThat(lines).containsExactly(
                    "alice create " + target,
                    "alice start " + target,
                    "bob rollback " + target + "/runs/" + first,
                    "alice abort " + target);

            List<String> bobs = Api.viewer().queryParam("since", since.toString()).queryParam("actor", "bob")
                    .get("/qawk/v1/audit").then().statusCode(200).extract().jsonPath().getList("content.action");
            assertThat(bobs).containsExactly("rollback");
            JsonPath onePage = Api.viewer().queryParam("since", since.toString()).queryParam("limit", 1)
                    .get("/qawk/v1/audit").then().statusCode(200).extract().jsonPath();
            assertThat(onePage.getList("content")).hasSize(1);
            assertThat(onePage.getLong("total")).isGreaterThanOrEqualTo(4);

            assertThat(actors(id, first)).containsEntry("CREATED", "alice").containsEntry("ROLLBACK_REQUESTED", "bob");
            assertThat(actors(id, second)).containsEntry("CREATED", "alice").containsEntry("SKIPPED", "alice");
        }
    }

    /** Issue 42: a manifest and a system type name who last changed them, the same person the audit listing names. */
    @Test
    void manifestsAndSystemTypesSayWhoLastChangedThem() {
        KeycloakServer keycloak = SharedKeycloak.get();
        String alice = keycloak.userToken("alice");
        String bob = keycloak.userToken("bob");
        Instant since = Instant.now().minus(1, ChronoUnit.SECONDS);
        try (Lanes lanes = new Lanes("upby-").as(() -> as(alice)).withSetsAndType()) {
            int manifest = lanes.manifest("2.0", "2");
            Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId).then().statusCode(200)
                    .body("updatedBy", Matchers.equalTo("alice"));
            Api.viewer().get("/qawk/v1/manifests/" + manifest).then().statusCode(200)
                    .body("updatedBy", Matchers.equalTo("alice"));

            lanes.as(() -> as(bob)).firmwareNeedsApp("terminal 2 needs app 2", "watch");
            as(bob).body("""
                    {"name": "upby-2.0", "systemTypeId": %d, "components": [
                      {"componentType": "lane", "distributionSetId": %d, "order": 1},
                      {"componentType": "display", "distributionSetId": %d, "order": 1},
                      {"componentType": "terminal", "distributionSetId": %d, "order": 2}]}
                    """.formatted(lanes.typeId, lanes.set("app:2"), lanes.set("disp:2"), lanes.set("term:2")))
                    .put("/qawk/v1/manifests/" + manifest).then().statusCode(200)
                    .body("updatedBy", Matchers.equalTo("bob"));
            Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId).then().statusCode(200)
                    .body("updatedBy", Matchers.equalTo("bob"));
            assertThat(Api.viewer().get("/qawk/v1/manifests").then().statusCode(200).extract().jsonPath()
                    .getString("find { it.id == " + manifest + " }.updatedBy")).isEqualTo("bob");

            await().atMost(WITHIN).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
                List<Map<String, Object>> audit = Api.viewer().queryParam("since", since.toString())
                        .queryParam("limit", 500).get("/qawk/v1/audit").then().statusCode(200).extract().jsonPath()
                        .getList("content");
                Map<String, String> lastActor = new HashMap<>();
                audit.forEach(e -> lastActor.put(String.valueOf(e.get("target")), String.valueOf(e.get("actor"))));
                assertThat(lastActor).containsEntry("systemtypes/" + lanes.typeId, "bob")
                        .containsEntry("manifests/" + manifest, "bob");
            });
        }
    }

    @Test
    void aSinceThatIsNoInstantIsRefusedNamingIt() {
        Api.viewer().queryParam("since", "yesterday").queryParam("limit", "x").get("/qawk/v1/audit").then()
                .statusCode(400).contentType("application/problem+json")
                .body("errors.field", hasItems("since", "limit"))
                .body("errors.find { it.field == 'since' }.message", containsString("ISO-8601"));
    }

    private static Map<String, Object> run(int id, String system) {
        List<Map<String, Object>> runs = Lanes.runs(id).getList("$");
        return runs.stream().filter(r -> system.equals(r.get("system"))).findFirst().orElseThrow();
    }

    /** Per kind of timeline entry of a run, who caused it (the last of each kind). */
    private static Map<String, String> actors(int id, long runId) {
        List<Map<String, Object>> events = Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/runs/" + runId
                + "/events").then().statusCode(200).extract().jsonPath().getList("$");
        Map<String, String> byKind = new HashMap<>();
        events.forEach(e -> byKind.put(String.valueOf(e.get("type")), String.valueOf(e.get("actor"))));
        return byKind;
    }
}
