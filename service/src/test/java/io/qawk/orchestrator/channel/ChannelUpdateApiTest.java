package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Tables;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * Changing a channel's settings (issue 56): {@code PUT} and {@code PATCH} change what they name and keep the rest,
 * inside {@code orchestrator} and {@code devices} too; {@code null} clears only what may be empty, and is a 400
 * naming the field elsewhere; a bad change changes nothing.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class ChannelUpdateApiTest {

    /** JSON Merge Patch, RFC 7396. */
    private static final String MERGE_PATCH = "application/merge-patch+json";

    @Inject
    DataSource dataSource;

    /** A channel with every setting away from its default, promoting to another. */
    private static int channel(String name) {
        int next = Api.admin().body("{\"name\": \"" + name + "-next\", \"match\": \"attribute.channel==" + name
                + "-next\"}").post("/qawk/v1/fleets").then().statusCode(201).extract().path("id");
        return Api.admin().body("""
                {"name": "%1$s", "match": "attribute.channel==%1$s", "promotesTo": %2$d, "soakSeconds": 60,
                 "approval": "required", "devices": {"maxFailed": 2, "batchSize": 50},
                 "orchestrator": {"maxParallel": 3, "maxFailed": 1, "byCentre": true, "centres": ["c01", "c02"],
                   "verifyTimeoutSeconds": 120, "soakSeconds": 600,
                   "windows": {"default": {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "Europe/Berlin"}}}}
                """.formatted(name, next)).post("/qawk/v1/fleets").then().statusCode(201).extract().path("id");
    }

    /** The settings, as the API shows them. */
    private static Map<String, Object> settings(int id) {
        JsonPath f = Api.viewer().get("/qawk/v1/fleets/" + id).then().statusCode(200).extract().jsonPath();
        Map<String, Object> s = new HashMap<>();
        for (String field : List.of("name", "match", "promotesTo", "soakSeconds", "approval", "devices",
                "orchestrator")) {
            s.put(field, f.get(field));
        }
        return s;
    }

    private static RequestSpecification mergePatch(String body) {
        return Api.admin().contentType(MERGE_PATCH).body(body);
    }

    private List<String> tables() {
        return Tables.dump(dataSource, "fleet", "fleet_release");
    }

    @Test
    void aPutThatLeavesOutSettingsKeepsThemInsideOrchestratorToo() {
        int id = channel("cu-keep");
        Map<String, Object> before = settings(id);

        Api.admin().body("{\"match\": \"attribute.channel==cu-kept\", \"orchestrator\": {\"maxParallel\": 4}}")
                .put("/qawk/v1/fleets/" + id).then().statusCode(200)
                .body("match", equalTo("attribute.channel==cu-kept"))
                .body("orchestrator.maxParallel", equalTo(4));

        Map<String, Object> after = settings(id);
        after.put("match", "attribute.channel==cu-keep");
        @SuppressWarnings("unchecked")
        Map<String, Object> orchestrator = new HashMap<>((Map<String, Object>) after.get("orchestrator"));
        orchestrator.put("maxParallel", 3);
        after.put("orchestrator", orchestrator);
        assertThat(after).as("everything but match and maxParallel as before").isEqualTo(before);
    }

    @Test
    void aMergePatchChangesOneFieldMergesWindowsAndNullClearsWhatMayBeEmpty() {
        int id = channel("cu-patch");
        Map<String, Object> before = settings(id);

        mergePatch("{\"devices\": {\"batchSize\": 80}}").patch("/qawk/v1/fleets/" + id).then().statusCode(200)
                .body("devices.batchSize", equalTo(80)).body("devices.maxFailed", equalTo(2));
        Map<String, Object> after = settings(id);
        after.put("devices", before.get("devices"));
        assertThat(after).as("everything but devices.batchSize as before").isEqualTo(before);

        mergePatch("{\"orchestrator\": {\"windows\": {\"default\": {\"duration\": \"04:00\"}}}}")
                .patch("/qawk/v1/fleets/" + id).then().statusCode(200)
                .body("orchestrator.windows.default.duration", equalTo("04:00"))
                .body("orchestrator.windows.default.schedule", equalTo("0 0 2 * * ?"))
                .body("orchestrator.windows.default.timezone", equalTo("Europe/Berlin"));

        mergePatch("{\"promotesTo\": null, \"approval\": null, \"orchestrator\": {\"windows\": null, \"centres\": null}}")
                .patch("/qawk/v1/fleets/" + id).then().statusCode(200)
                .body("promotesTo", nullValue())
                .body("approval", equalTo("none"))
                .body("orchestrator.windows", nullValue())
                .body("orchestrator.centres", equalTo(List.of()))
                .body("orchestrator.maxParallel", equalTo(3))
                .body("soakSeconds", equalTo(60));
    }

    @Test
    void aPutNullClearsThePromotionTarget() {
        int id = channel("cu-put-null");

        Api.admin().body("{\"promotesTo\": null}").put("/qawk/v1/fleets/" + id).then().statusCode(200)
                .body("promotesTo", nullValue())
                .body("orchestrator.maxParallel", equalTo(3));
    }

    @Test
    void aBadChangeIsAProblemNamingTheFieldAndChangesNothing() {
        int id = channel("cu-bad");
        List<String> before = tables();
        String[][] cases = {
                {"{\"orchestrator\": {\"maxParallel\": null}}", "orchestrator.maxParallel", "cannot be cleared"},
                {"{\"name\": null}", "name", "cannot be cleared"},
                {"{\"soakSeconds\": null}", "soakSeconds", "cannot be cleared"},
                {"{\"orchestrator\": {\"maxParallel\": 0}}", "orchestrator.maxParallel", "between 1 and 10000"},
                {"{\"orchestrator\": {\"maxParallel\": \"four\"}}", "orchestrator.maxParallel", "must be"},
                {"{\"colour\": \"red\"}", "colour", "not a known field"},
        };
        for (String[] c : cases) {
            mergePatch(c[0]).patch("/qawk/v1/fleets/" + id).then().statusCode(400)
                    .contentType("application/problem+json")
                    .body("errors.find { it.field == '" + c[1] + "' }.message", containsString(c[2]));
            Api.admin().body(c[0]).put("/qawk/v1/fleets/" + id).then().statusCode(400)
                    .contentType("application/problem+json")
                    .body("errors.find { it.field == '" + c[1] + "' }.message", containsString(c[2]));
        }
        Api.admin().body("{\"soakSeconds\": 5}").patch("/qawk/v1/fleets/" + id).then().statusCode(415)
                .contentType("application/problem+json").body("detail", containsString(MERGE_PATCH));
        assertThat(tables()).isEqualTo(before);
    }
}
