package io.qawk.orchestrator.systemtype;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.Tables;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import javax.sql.DataSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

@QuarkusTest
class SystemTypeApiTest {

    @Inject
    DataSource dataSource;

    static String body(String name) {
        return """
                {"name": "%s", "systemKey": "attribute.device", "groupKey": "attribute.centerid",
                 "components": [
                   {"componentType": "device1", "match": "attribute.device_type==device1"},
                   {"componentType": "device2", "match": "attribute.device_type==device2"}]}
                """.formatted(name);
    }

    private List<String> tables() {
        return Tables.dump(dataSource, "system_type", "system_type_component");
    }

    @Test
    void createReadReplaceDelete() {
        int id = Api.admin().body(body("crud-type")).post("/qawk/v1/systemtypes")
                .then().statusCode(201)
                .header("Location", containsString("/qawk/v1/systemtypes/"))
                .body("name", equalTo("crud-type"))
                .body("components", hasSize(2))
                .body("components[1].match", equalTo("attribute.device_type==device2"))
                .extract().path("id");

        Api.viewer().get("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .body("systemKey", equalTo("attribute.device"));
        Api.viewer().get("/qawk/v1/systemtypes").then().statusCode(200).body("name", hasItem("crud-type"));

        Api.admin().body("""
                {"name": "crud-type-renamed", "systemKey": "metadata.lane", "groupKey": null,
                 "components": [{"componentType": "display", "match": "attribute.device_type==display"}]}
                """).put("/qawk/v1/systemtypes/" + id)
                .then().statusCode(200)
                .body("name", equalTo("crud-type-renamed"))
                .body("groupKey", equalTo(null))
                .body("effectiveGroupKey", equalTo("attribute.centerid"))
                .body("components", hasSize(1));

        Api.admin().delete("/qawk/v1/systemtypes/" + id).then().statusCode(204);
        Api.admin().get("/qawk/v1/systemtypes/" + id).then().statusCode(404)
                .contentType("application/problem+json")
                .body("detail", containsString("does not exist"));
    }

    @Test
    void aDuplicateNameIsAConflictAndChangesNothing() {
        Api.admin().body(body("dup-type")).post("/qawk/v1/systemtypes").then().statusCode(201);
        List<String> before = tables();

        Api.admin().body(body("dup-type")).post("/qawk/v1/systemtypes")
                .then().statusCode(409).contentType("application/problem+json")
                .body("status", equalTo(409))
                .body("detail", containsString("'dup-type' already exists"));

        assertThat(tables()).isEqualTo(before);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "missing name|{\"systemKey\":\"attribute.device\",\"components\":[{\"componentType\":\"a\",\"match\":\"attribute.t==a\"}]}|name|is required",
            "bad system key|{\"name\":\"x\",\"systemKey\":\"device\",\"components\":[{\"componentType\":\"a\",\"match\":\"attribute.t==a\"}]}|systemKey|attribute.<key> or metadata.<key>",
            "bad group key|{\"name\":\"x\",\"systemKey\":\"attribute.device\",\"groupKey\":\"tag.x y\",\"components\":[{\"componentType\":\"a\",\"match\":\"attribute.t==a\"}]}|groupKey|attribute.<key>",
            "no components|{\"name\":\"x\",\"systemKey\":\"attribute.device\",\"components\":[]}|components|at least one",
            "duplicate component|{\"name\":\"x\",\"systemKey\":\"attribute.device\",\"components\":[{\"componentType\":\"a\",\"match\":\"attribute.t==a\"},{\"componentType\":\"a\",\"match\":\"attribute.t==b\"}]}|components[1].componentType|more than once",
            "broken match|{\"name\":\"x\",\"systemKey\":\"attribute.device\",\"components\":[{\"componentType\":\"a\",\"match\":\"attribute.t=a\"}]}|components[0].match|expected an operator",
            "unknown match field|{\"name\":\"x\",\"systemKey\":\"attribute.device\",\"components\":[{\"componentType\":\"a\",\"match\":\"colour==red\"}]}|components[0].match|unknown field 'colour'",
            "wrong type|{\"name\":\"x\",\"systemKey\":\"attribute.device\",\"components\":\"all\"}|components|must be",
            "number for text|{\"name\":\"x\",\"systemKey\":\"attribute.device\",\"components\":[{\"componentType\":\"a\",\"match\":7}]}|components[0].match|must be",
            "extra field|{\"name\":\"x\",\"systemKey\":\"attribute.device\",\"colour\":\"red\",\"components\":[{\"componentType\":\"a\",\"match\":\"attribute.t==a\"}]}|colour|not a known field",
            "null component|{\"name\":\"x\",\"systemKey\":\"attribute.device\",\"components\":[null]}|components[0]|must be an object"
    })
    void badBodiesAnswerFieldErrorsAndChangeNothing(String what, String json, String field, String message) {
        List<String> before = tables();

        Api.admin().body(json).post("/qawk/v1/systemtypes")
                .then().statusCode(400).contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("errors.find { it.field == '" + field + "' }.message", containsString(message));

        assertThat(tables()).isEqualTo(before);
    }

    @Test
    void allProblemsAreListedAtOnce() {
        Api.admin().body("{\"name\":\"\",\"systemKey\":\"x\",\"components\":[{\"componentType\":\"\",\"match\":\"\"}]}")
                .post("/qawk/v1/systemtypes")
                .then().statusCode(400)
                .body("errors.field", Matchers.containsInAnyOrder(
                        "name", "systemKey", "components[0].componentType", "components[0].match"));
    }

    @Test
    void malformedJsonSaysWhere() {
        Api.admin().body("{\"name\": \"x\",\n \"systemKey\": }").post("/qawk/v1/systemtypes")
                .then().statusCode(400).contentType("application/problem+json")
                .body("detail", containsString("line 2"));
        Api.admin().body("").post("/qawk/v1/systemtypes")
                .then().statusCode(400).contentType("application/problem+json");
        Api.admin().contentType(ContentType.TEXT).body("name=x").post("/qawk/v1/systemtypes")
                .then().statusCode(415).contentType("application/problem+json");
    }

    @Test
    void unknownIdsAnswer404() {
        Api.admin().body(body("never")).put("/qawk/v1/systemtypes/999999").then().statusCode(404)
                .contentType("application/problem+json");
        Api.admin().delete("/qawk/v1/systemtypes/999999").then().statusCode(404);
        Api.viewer().get("/qawk/v1/systemtypes/999999/systems").then().statusCode(404);
        Api.viewer().get("/qawk/v1/systemtypes/not-a-number").then().statusCode(404);
    }

    @Test
    void authenticationAndRoles() {
        Api.anonymous().get("/qawk/v1/systemtypes").then().statusCode(401);
        Api.anonymous().body(body("anon")).post("/qawk/v1/systemtypes").then().statusCode(401);
        io.restassured.RestAssured.given().auth().preemptive().basic("admin", "wrong").get("/qawk/v1/systemtypes")
                .then().statusCode(401);
        Api.viewer().get("/qawk/v1/systemtypes").then().statusCode(200);

        List<String> before = tables();
        Api.viewer().body(body("viewer-write")).post("/qawk/v1/systemtypes").then().statusCode(403);
        Api.viewer().delete("/qawk/v1/systemtypes/1").then().statusCode(403);
        assertThat(tables()).isEqualTo(before);

        Api.anonymous().get("/q/health/live").then().statusCode(200);
    }

    // ---- an update never drops a safety setting it does not name (issue 56) ---------------------------------

    /** A type with every safety setting: a rule, guard hold, four eyes, a group key and a health query. */
    private static int guarded(String name) {
        return Api.admin().body("""
                {"name": "%s", "systemKey": "attribute.device", "groupKey": "attribute.centerid",
                 "components": [
                   {"componentType": "device1", "match": "attribute.device_type==device1",
                    "health": "attribute.lane_state==scoring"},
                   {"componentType": "device2", "match": "attribute.device_type==device2"}],
                 "rules": [{"if": {"device1": "app:[2,)"}, "then": {"device2": "fw:[2,)"}, "why": "app 2 needs fw 2"}],
                 "guard": "hold", "approval": "required"}
                """.formatted(name)).post("/qawk/v1/systemtypes").then().statusCode(201).extract().path("id");
    }

    /** JSON Merge Patch, RFC 7396. */
    static final String MERGE_PATCH = "application/merge-patch+json";

    static RequestSpecification mergePatch(String body) {
        return Api.admin().contentType(MERGE_PATCH).body(body);
    }

    private static Map<String, Object> read(int id) {
        Map<String, Object> view = new HashMap<>(Api.viewer().get("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .extract().jsonPath().getMap(""));
        view.remove("updatedAt");
        return view;
    }

    @Test
    void aPutThatLeavesOutRulesGuardApprovalAndHealthKeepsThem() {
        int id = guarded("keep-type");

        // the README's tour: "PUT it with its fields", the rules left out
        Api.admin().body("""
                {"name": "keep-type", "systemKey": "attribute.device",
                 "components": [
                   {"componentType": "device1", "match": "attribute.device_type==device1"},
                   {"componentType": "device2", "match": "attribute.device_type==device2"},
                   {"componentType": "device3", "match": "attribute.device_type==device3"}]}
                """).put("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .body("rules", hasSize(1))
                .body("rules[0].why", equalTo("app 2 needs fw 2"))
                .body("guard", equalTo("hold"))
                .body("approval", equalTo("required"))
                .body("groupKey", equalTo("attribute.centerid"))
                .body("components", hasSize(3))
                .body("components[0].health", equalTo("attribute.lane_state==scoring"))
                .body("components[2].health", equalTo(null));
        Api.viewer().get("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .body("rules[0].if.device1", equalTo("app:[2,)")).body("guard", equalTo("hold"));
    }

    @Test
    void aPutClearsWhatItNamesEmptyOrNull() {
        int id = guarded("clear-type");

        Api.admin().body("""
                {"rules": [], "groupKey": null,
                 "components": [
                   {"componentType": "device1", "health": null},
                   {"componentType": "device2"}]}
                """).put("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .body("rules", hasSize(0))
                .body("groupKey", equalTo(null))
                .body("components[0].match", equalTo("attribute.device_type==device1"))
                .body("components[0].health", equalTo(null))
                .body("name", equalTo("clear-type"))
                .body("guard", equalTo("hold"))
                .body("approval", equalTo("required"));
    }

    @Test
    void aMergePatchChangesOneFieldAndLeavesTheRest() {
        int id = guarded("patch-type");
        Map<String, Object> before = read(id);

        mergePatch("{\"guard\": \"watch\"}").patch("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .body("guard", equalTo("watch"));

        Map<String, Object> after = read(id);
        assertThat(after.get("guard")).isEqualTo("watch");
        after.put("guard", "hold");
        assertThat(after).as("everything but guard as before").isEqualTo(before);
    }

    @Test
    void aMergePatchNullClearsAndAComponentListKeepsWhatItsComponentsLeaveOut() {
        int id = guarded("patch-null-type");

        mergePatch("{\"rules\": null, \"approval\": null, \"groupKey\": null}")
                .patch("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .body("rules", hasSize(0))
                .body("approval", equalTo("none"))
                .body("groupKey", equalTo(null))
                .body("guard", equalTo("hold"))
                .body("components[0].health", equalTo("attribute.lane_state==scoring"));

        mergePatch("""
                {"components": [{"componentType": "device1", "match": "attribute.device_type==lane"}]}
                """).patch("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .body("components", hasSize(1))
                .body("components[0].match", equalTo("attribute.device_type==lane"))
                .body("components[0].health", equalTo("attribute.lane_state==scoring"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "bad guard|{\"guard\": \"sometimes\"}|guard|must be watch or hold",
            "unknown field|{\"rulez\": []}|rulez|not a known field",
            "required field cleared|{\"name\": null}|name|is required",
            "components cleared|{\"components\": null}|components|at least one",
            "wrong type|{\"rules\": \"none\"}|rules|must be",
            "new component without match|{\"components\": [{\"componentType\": \"device9\"}]}|components[0].match|is required",
            "rule on a component that is gone|{\"components\": [{\"componentType\": \"device1\"}]}|rules[0].then.device2|not a component of this system type"
    })
    void aBadMergePatchIsAProblemNamingTheFieldAndChangesNothing(String what, String patch, String field, String message) {
        int id = guarded("bad-patch-" + what.replace(' ', '-'));
        List<String> before = tables();

        mergePatch(patch).patch("/qawk/v1/systemtypes/" + id).then().statusCode(400)
                .contentType("application/problem+json")
                .body("errors.find { it.field == '" + field + "' }.message", containsString(message));

        assertThat(tables()).isEqualTo(before);
    }

    @Test
    void aPatchIsAMergePatchAndNeedsAnAdmin() {
        int id = guarded("patch-media-type");
        List<String> before = tables();

        Api.admin().body("{\"guard\": \"watch\"}").patch("/qawk/v1/systemtypes/" + id).then().statusCode(415)
                .contentType("application/problem+json")
                .body("detail", containsString("application/merge-patch+json"));
        mergePatch("[{\"guard\": \"watch\"}]").patch("/qawk/v1/systemtypes/" + id).then().statusCode(400)
                .contentType("application/problem+json").body("detail", containsString("JSON object"));
        Api.viewer().contentType(MERGE_PATCH).body("{\"guard\": \"watch\"}")
                .patch("/qawk/v1/systemtypes/" + id).then().statusCode(403);
        mergePatch("{\"guard\": \"watch\"}").patch("/qawk/v1/systemtypes/999999").then().statusCode(404)
                .contentType("application/problem+json");

        assertThat(tables()).isEqualTo(before);
    }
}
