package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Tables;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.LinkedHashMap;
import javax.sql.DataSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * Editing a draft deployment (issue 56): {@code PUT} keeps the settings it leaves out, {@code PATCH} is a JSON Merge
 * Patch of the request, {@code null} sets a setting back to its default, a bad edit changes nothing, and a deployment
 * that started is edited neither way.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DraftUpdateApiTest {

    private static final String P = "du-";
    /** JSON Merge Patch, RFC 7396. */
    private static final String MERGE_PATCH = "application/merge-patch+json";
    private static final String WINDOWS = """
            {"default": {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "Europe/Berlin"}}""";

    @Inject
    DataSource dataSource;

    private int manifest;

    @BeforeEach
    void prepare() {
        if (manifest != 0) {
            return;
        }
        long app = new HawkbitFixtures(SharedHawkbit.get()).createDistributionSet(P + "app", "2.0");
        int type = Api.admin().body("""
                {"name": "%slane", "systemKey": "attribute.device", "components": [
                  {"componentType": "lane", "match": "attribute.device_type==%slane"}]}
                """.formatted(P, P)).post("/qawk/v1/systemtypes").then().statusCode(201).extract().path("id");
        manifest = Api.admin().body("""
                {"name": "%s2.0", "systemTypeId": %d, "components": [
                  {"componentType": "lane", "distributionSetId": %d, "order": 1}]}
                """.formatted(P, type, app)).post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
    }

    /** A draft with every setting away from its default. */
    private int draft(String name) {
        return Api.admin().body("""
                {"name": "%s", "manifestId": %d, "groups": ["c01", "c02"], "systems": ["lane-01"],
                 "maxParallel": 3, "maxFailed": 2, "byCentre": true, "orderTimeoutSeconds": 600,
                 "verifyTimeoutSeconds": 120, "soakSeconds": 900, "windows": %s}
                """.formatted(P + name, manifest, WINDOWS)).post("/qawk/v1/systemdeployments").then().statusCode(201)
                .extract().path("id");
    }

    /** What an edit may change, as the API shows it. */
    private static Map<String, Object> settings(int id) {
        JsonPath d = Api.viewer().get("/qawk/v1/systemdeployments/" + id).then().statusCode(200).extract().jsonPath();
        Map<String, Object> s = new LinkedHashMap<>();
        for (String field : List.of("name", "manifestId", "fleetId", "groups", "systems", "maxParallel", "maxFailed",
                "byCentre", "orderTimeoutSeconds", "verifyTimeoutSeconds", "soakSeconds", "metricGate", "windows")) {
            s.put(field, d.get(field));
        }
        return s;
    }

    private static RequestSpecification mergePatch(String body) {
        return Api.admin().contentType(MERGE_PATCH).body(body);
    }

    private List<String> tables() {
        return Tables.dump(dataSource, "system_deployment", "system_run", "deployment_event");
    }

    @Test
    void aPutThatLeavesOutSettingsKeepsThem() {
        int id = draft("keep");
        Map<String, Object> before = settings(id);

        Api.admin().body("{\"name\": \"" + P + "kept\"}").put("/qawk/v1/systemdeployments/" + id)
                .then().statusCode(200).body("name", equalTo(P + "kept"));

        Map<String, Object> after = settings(id);
        assertThat(after.get("windows")).as("the maintenance window is kept").isNotNull();
        after.put("name", P + "keep");
        assertThat(after).as("everything but the name as before").isEqualTo(before);
    }

    @Test
    void aMergePatchChangesOneSettingAndNullSetsOneBackToItsDefault() {
        int id = draft("patch");
        Map<String, Object> before = settings(id);

        mergePatch("{\"maxParallel\": 5}").patch("/qawk/v1/systemdeployments/" + id).then().statusCode(200)
                .body("maxParallel", equalTo(5));
        Map<String, Object> after = settings(id);
        after.put("maxParallel", 3);
        assertThat(after).as("everything but maxParallel as before").isEqualTo(before);

        mergePatch("{\"windows\": null, \"groups\": null, \"maxFailed\": null}")
                .patch("/qawk/v1/systemdeployments/" + id).then().statusCode(200)
                .body("windows", nullValue())
                .body("groups", equalTo(List.of()))
                .body("maxFailed", equalTo(0))
                .body("soakSeconds", equalTo(900))
                .body("systems", equalTo(List.of("lane-01")));
    }

    @Test
    void aBadEditIsAProblemNamingTheFieldAndChangesNothing() {
        int id = draft("bad");
        List<String> before = tables();
        String[][] cases = {
                {"{\"maxParallel\": 0}", "maxParallel", "between 1 and 10000"},
                {"{\"maxParallel\": \"four\"}", "maxParallel", "must be"},
                {"{\"fleetId\": 999999}", "fleetId", "no channel"},
                {"{\"manifestId\": null}", "manifestId", "is required"},
                {"{\"parallel\": 4}", "parallel", "not a known field"},
                {"{\"windows\": {\"default\": {\"duration\": \"200:00\"}}}", "windows.default.duration", ""},
        };
        for (String[] c : cases) {
            mergePatch(c[0]).patch("/qawk/v1/systemdeployments/" + id).then().statusCode(400)
                    .contentType("application/problem+json")
                    .body("errors.find { it.field == '" + c[1] + "' }.message", containsString(c[2]));
            Api.admin().body(c[0]).put("/qawk/v1/systemdeployments/" + id).then().statusCode(400)
                    .contentType("application/problem+json")
                    .body("errors.find { it.field == '" + c[1] + "' }.message", containsString(c[2]));
        }
        Api.admin().body("{\"maxParallel\": 5}").patch("/qawk/v1/systemdeployments/" + id).then().statusCode(415)
                .contentType("application/problem+json").body("detail", containsString(MERGE_PATCH));
        assertThat(tables()).isEqualTo(before);
    }

    @Test
    void aStartedDeploymentIsEditedNeitherByPutNorByPatch() {
        // a channel's release starts its deployment even with no system in scope: it follows the channel
        int channel = Api.admin().body("""
                {"name": "%schannel", "match": "attribute.channel==%snobody"}
                """.formatted(P, P)).post("/qawk/v1/fleets").then().statusCode(201).extract().path("id");
        Api.admin().body("{\"manifestId\": " + manifest + "}").put("/qawk/v1/fleets/" + channel).then().statusCode(200);
        int id = Api.viewer().get("/qawk/v1/fleets/" + channel).then().statusCode(200).extract()
                .path("release.deploymentId");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).until(() ->
                !List.of("DRAFT", "AWAITING_APPROVAL").contains(Api.viewer().get("/qawk/v1/systemdeployments/" + id)
                        .then().statusCode(200).extract().<String>path("state")));
        Map<String, Object> before = settings(id);

        mergePatch("{\"maxParallel\": 7}").patch("/qawk/v1/systemdeployments/" + id).then().statusCode(409)
                .contentType("application/problem+json")
                .body("detail", containsString("only a deployment not yet started (DRAFT or AWAITING_APPROVAL) can be edited"));
        Api.admin().body("{\"maxParallel\": 7}").put("/qawk/v1/systemdeployments/" + id).then().statusCode(409)
                .body("detail", containsString("only a deployment not yet started"));

        assertThat(settings(id)).isEqualTo(before);
    }
}
