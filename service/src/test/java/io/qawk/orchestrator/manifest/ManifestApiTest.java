package io.qawk.orchestrator.manifest;

import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testsupport.Tables;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import javax.sql.DataSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/** The manifests API against a real hawkBit: sets are created there, so "exists" and "complete" are hawkBit's word. */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ManifestApiTest {

    private static final String P = "mf-";

    @Inject
    DataSource dataSource;

    private HawkbitFixtures hawkbit;
    private long typeId;
    private long app;
    private long fw;
    private long display;
    private long incomplete;

    /** Once per class, but in a @BeforeEach: RestAssured knows the application's port only there. */
    @BeforeEach
    void prepare() {
        if (hawkbit != null) {
            return;
        }
        hawkbit = new HawkbitFixtures(SharedHawkbit.get());
        app = hawkbit.createDistributionSet(P + "app", "2.0");
        fw = hawkbit.createDistributionSet(P + "fw", "2.0");
        display = hawkbit.createDistributionSet(P + "display", "1.0");
        incomplete = MgmtApi.createIncompleteSet(P + "incomplete", "1.0");
        typeId = createType(P + "lane", "device1", "device2", "device3");
    }

    static long createType(String name, String... componentTypes) {
        StringBuilder components = new StringBuilder();
        for (String c : componentTypes) {
            components.append(components.length() == 0 ? "" : ",")
                    .append("{\"componentType\":\"").append(c).append("\",\"match\":\"attribute.device_type==")
                    .append(c).append("\"}");
        }
        return Api.admin().body("{\"name\":\"" + name + "\",\"systemKey\":\"attribute.device\",\"components\":["
                        + components + "]}")
                .post("/qawk/v1/systemtypes").then().statusCode(201).extract().jsonPath().getLong("id");
    }

    private String body(String name) {
        return """
                {"name": "%s", "systemTypeId": %d, "components": [
                  {"componentType": "device2", "distributionSetId": %d, "order": 1},
                  {"componentType": "device3", "distributionSetId": %d, "order": 1},
                  {"componentType": "device1", "distributionSetId": %d, "order": 2}]}
                """.formatted(name, typeId, fw, display, app);
    }

    private List<String> tables() {
        return Tables.dump(dataSource, "system_type", "system_type_component", "manifest", "manifest_component");
    }

    @Test
    void createReadReplaceDelete() {
        long id = Api.admin().body(body(P + "crud")).post("/qawk/v1/manifests")
                .then().statusCode(201)
                .header("Location", containsString("/qawk/v1/manifests/"))
                .body("name", equalTo(P + "crud"))
                .body("systemTypeId", equalTo((int) typeId))
                .body("components.componentType", contains("device2", "device3", "device1"))
                .body("components[0].distributionSet", equalTo(P + "fw:2.0"))
                .body("components[2].distributionSetId", equalTo((int) app))
                .body("orders", contains(1, 2))
                .body("createdAt", notNullValue())
                .body("updatedAt", notNullValue())
                .extract().jsonPath().getLong("id");

        Api.viewer().get("/qawk/v1/manifests/" + id).then().statusCode(200)
                .body("components[1].distributionSet", equalTo(P + "display:1.0"));
        Api.viewer().get("/qawk/v1/manifests").then().statusCode(200).body("name", hasItem(P + "crud"));
        Api.viewer().get("/qawk/v1/manifests?systemTypeId=" + typeId).then().statusCode(200)
                .body("systemTypeId", everyItem(equalTo((int) typeId)))
                .body("name", hasItem(P + "crud"));
        Api.viewer().get("/qawk/v1/manifests?systemTypeId=999999").then().statusCode(200).body("name", not(hasItem(P + "crud")));

        Api.admin().body("""
                {"name": "%s", "systemTypeId": %d, "components": [
                  {"componentType": "device1", "distributionSetId": %d, "order": 1000}]}
                """.formatted(P + "crud-renamed", typeId, app)).put("/qawk/v1/manifests/" + id)
                .then().statusCode(200)
                .body("name", equalTo(P + "crud-renamed"))
                .body("components.componentType", contains("device1"))
                .body("orders", contains(1000));

        Api.admin().delete("/qawk/v1/manifests/" + id).then().statusCode(204);
        Api.admin().get("/qawk/v1/manifests/" + id).then().statusCode(404)
                .contentType("application/problem+json").body("detail", containsString("does not exist"));
    }

    @Test
    void hawkbitsSetsAreListedByNameAndVersionForWhoeverWritesAManifest() {
        long one = hawkbit.createDistributionSet(P + "list", "1");
        long two = hawkbit.createDistributionSet(P + "list", "2");
        // by name, newest first within a name; case-insensitive; viewers may read it too
        Api.viewer().get("/qawk/v1/distributionsets?q=MF-LIST").then().statusCode(200)
                .body("total", equalTo(2)).body("content.label", contains(P + "list:2", P + "list:1"))
                .body("content.id", contains((int) two, (int) one)).body("content[0].name", equalTo(P + "list"))
                .body("content[0].version", equalTo("2")).body("content[0].complete", equalTo(true));
        io.restassured.path.json.JsonPath all = Api.viewer().get("/qawk/v1/distributionsets?q=" + P + "&limit=500")
                .then().statusCode(200).extract().jsonPath();
        assertThat(all.<String>getList("content.name")).isSorted()
                .contains(P + "app", P + "fw", P + "display", P + "incomplete", P + "list");
        assertThat(all.getBoolean("content.find { it.label == '" + P + "incomplete:1.0' }.complete")).isFalse();
        // a page: the first of all that match, and how many match
        Api.viewer().get("/qawk/v1/distributionsets?q=" + P + "list&limit=1").then().statusCode(200)
                .body("total", equalTo(2)).body("content.label", contains(P + "list:2"));
        // text that would be FIQL stays text
        Api.viewer().get("/qawk/v1/distributionsets?q=\"),x==(").then().statusCode(200).body("total", equalTo(0));
        Api.viewer().get("/qawk/v1/distributionsets?limit=0").then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("limit"));
        Api.viewer().get("/qawk/v1/distributionsets?limit=abc").then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("limit"))
                .body("errors[0].message", equalTo("must be a whole number (got \"abc\")"));
        Api.anonymous().get("/qawk/v1/distributionsets").then().statusCode(401);
    }

    @Test
    void theListIsSortedByName() {
        Api.admin().body(body(P + "sort-b")).post("/qawk/v1/manifests").then().statusCode(201);
        Api.admin().body(body(P + "sort-a")).post("/qawk/v1/manifests").then().statusCode(201);
        List<String> names = Api.viewer().get("/qawk/v1/manifests").then().statusCode(200)
                .extract().jsonPath().getList("name");
        assertThat(names).isSorted();
        assertThat(names.indexOf(P + "sort-a")).isLessThan(names.indexOf(P + "sort-b"));
    }

    @Test
    void aDuplicateNameIsAConflictAndChangesNothing() {
        Api.admin().body(body(P + "dup")).post("/qawk/v1/manifests").then().statusCode(201);
        List<String> before = tables();
        Api.admin().body(body(P + "dup")).post("/qawk/v1/manifests")
                .then().statusCode(409).contentType("application/problem+json")
                .body("detail", containsString("'" + P + "dup' already exists"));
        assertThat(tables()).isEqualTo(before);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "missing name|{\"systemTypeId\":TYPE,\"components\":[{\"componentType\":\"device1\",\"distributionSetId\":APP,\"order\":1}]}|name|is required",
            "bad name|{\"name\":\"-x\",\"systemTypeId\":TYPE,\"components\":[{\"componentType\":\"device1\",\"distributionSetId\":APP,\"order\":1}]}|name|must start with a letter or digit",
            "missing system type|{\"name\":\"x\",\"components\":[{\"componentType\":\"device1\",\"distributionSetId\":APP,\"order\":1}]}|systemTypeId|is required",
            "unknown system type|{\"name\":\"x\",\"systemTypeId\":999999,\"components\":[{\"componentType\":\"device1\",\"distributionSetId\":APP,\"order\":1}]}|systemTypeId|system type 999999 does not exist",
            "no components|{\"name\":\"x\",\"systemTypeId\":TYPE,\"components\":[]}|components|at least one",
            "missing components|{\"name\":\"x\",\"systemTypeId\":TYPE}|components|at least one",
            "foreign component type|{\"name\":\"x\",\"systemTypeId\":TYPE,\"components\":[{\"componentType\":\"printer\",\"distributionSetId\":APP,\"order\":1}]}|components[0].componentType|not a component of system type",
            "component type twice|{\"name\":\"x\",\"systemTypeId\":TYPE,\"components\":[{\"componentType\":\"device1\",\"distributionSetId\":APP,\"order\":1},{\"componentType\":\"device1\",\"distributionSetId\":APP,\"order\":2}]}|components[1].componentType|more than once",
            "order missing|{\"name\":\"x\",\"systemTypeId\":TYPE,\"components\":[{\"componentType\":\"device1\",\"distributionSetId\":APP}]}|components[0].order|is required",
            "order zero|{\"name\":\"x\",\"systemTypeId\":TYPE,\"components\":[{\"componentType\":\"device1\",\"distributionSetId\":APP,\"order\":0}]}|components[0].order|between 1 and 1000 (got 0)",
            "order too high|{\"name\":\"x\",\"systemTypeId\":TYPE,\"components\":[{\"componentType\":\"device1\",\"distributionSetId\":APP,\"order\":1001}]}|components[0].order|got 1001",
            "order not a number|{\"name\":\"x\",\"systemTypeId\":TYPE,\"components\":[{\"componentType\":\"device1\",\"distributionSetId\":APP,\"order\":\"first\"}]}|components[0].order|must be a whole number",
            "set missing|{\"name\":\"x\",\"systemTypeId\":TYPE,\"components\":[{\"componentType\":\"device1\",\"order\":1}]}|components[0].distributionSetId|is required",
            "unknown set|{\"name\":\"x\",\"systemTypeId\":TYPE,\"components\":[{\"componentType\":\"device1\",\"distributionSetId\":987654,\"order\":1}]}|components[0].distributionSetId|distribution set 987654 does not exist in hawkBit",
            "incomplete set|{\"name\":\"x\",\"systemTypeId\":TYPE,\"components\":[{\"componentType\":\"device1\",\"distributionSetId\":INCOMPLETE,\"order\":1}]}|components[0].distributionSetId|is incomplete",
            "null component|{\"name\":\"x\",\"systemTypeId\":TYPE,\"components\":[null]}|components[0]|must be an object",
            "extra field|{\"name\":\"x\",\"systemTypeId\":TYPE,\"colour\":\"red\",\"components\":[{\"componentType\":\"device1\",\"distributionSetId\":APP,\"order\":1}]}|colour|not a known field"
    })
    void badBodiesAnswerFieldErrorsAndChangeNothing(String what, String json, String field, String message) {
        String body = json.replace("TYPE", String.valueOf(typeId)).replace("INCOMPLETE", String.valueOf(incomplete))
                .replace("APP", String.valueOf(app));
        List<String> before = tables();

        Api.admin().body(body).post("/qawk/v1/manifests")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.find { it.field == '" + field + "' }.message", containsString(message));

        assertThat(tables()).isEqualTo(before);
    }

    @Test
    void theIncompleteSetIsNamedWithItsId() {
        Api.admin().body("""
                {"name": "x", "systemTypeId": %d, "components": [
                  {"componentType": "device1", "distributionSetId": %d, "order": 1}]}
                """.formatted(typeId, incomplete)).post("/qawk/v1/manifests")
                .then().statusCode(400)
                .body("detail", equalTo("components[0].distributionSetId: distribution set " + incomplete + " ("
                        + P + "incomplete:1.0) is incomplete: a mandatory software module is missing, so hawkBit "
                        + "cannot assign it"));
    }

    @Test
    void aRefusedReplaceChangesNothing() {
        long id = Api.admin().body(body(P + "refused-replace")).post("/qawk/v1/manifests")
                .then().statusCode(201).extract().jsonPath().getLong("id");
        List<String> before = tables();
        Api.admin().body("""
                {"name": "%s", "systemTypeId": %d, "components": [
                  {"componentType": "device1", "distributionSetId": 987654, "order": 1}]}
                """.formatted(P + "refused-replace", typeId)).put("/qawk/v1/manifests/" + id)
                .then().statusCode(400).body("errors[0].field", equalTo("components[0].distributionSetId"));
        Api.admin().body(body(P + "dup-target")).post("/qawk/v1/manifests").then().statusCode(201);
        List<String> withOther = tables();
        Api.admin().body(body(P + "dup-target")).put("/qawk/v1/manifests/" + id).then().statusCode(409);
        assertThat(tables()).isEqualTo(withOther).containsAll(before);
        Api.admin().body(body(P + "x")).put("/qawk/v1/manifests/999999").then().statusCode(404);
        Api.admin().delete("/qawk/v1/manifests/999999").then().statusCode(404);
    }

    @Test
    void aManifestInUseCannotBeChangedOrDeleted() {
        String name = BlockingManifestUsage.PREFIX + "busy";
        long id = Api.admin().body(body(name)).post("/qawk/v1/manifests")
                .then().statusCode(201).extract().jsonPath().getLong("id");
        List<String> before = tables();

        Api.admin().body(body(name)).put("/qawk/v1/manifests/" + id).then().statusCode(409)
                .contentType("application/problem+json")
                .body("detail", containsString("used by a deployment that has not ended"));
        Api.admin().delete("/qawk/v1/manifests/" + id).then().statusCode(409);

        assertThat(tables()).isEqualTo(before);
    }

    @Test
    void aSystemTypeUsedByAManifestCannotBeDeletedNorLoseAUsedComponent() {
        long type = createType(P + "guarded", "a", "b", "c");
        Api.admin().body("""
                {"name": "%s", "systemTypeId": %d, "components": [
                  {"componentType": "b", "distributionSetId": %d, "order": 1}]}
                """.formatted(P + "guarding", type, app)).post("/qawk/v1/manifests").then().statusCode(201);
        List<String> before = tables();

        Api.admin().delete("/qawk/v1/systemtypes/" + type).then().statusCode(409)
                .contentType("application/problem+json")
                .body("detail", containsString("used by 1 manifest(s): " + P + "guarding"));
        Api.admin().body("""
                {"name": "%s", "systemKey": "attribute.device", "components": [
                  {"componentType": "a", "match": "attribute.device_type==a"}]}
                """.formatted(P + "guarded")).put("/qawk/v1/systemtypes/" + type).then().statusCode(409)
                .body("detail", containsString("'b' (used by manifest '" + P + "guarding')"));
        assertThat(tables()).isEqualTo(before);

        // losing a component type no manifest uses is fine
        Api.admin().body("""
                {"name": "%s", "systemKey": "attribute.device", "components": [
                  {"componentType": "b", "match": "attribute.device_type==b"}]}
                """.formatted(P + "guarded")).put("/qawk/v1/systemtypes/" + type).then().statusCode(200);
    }

    @Test
    void theViewerCannotWrite() {
        long id = Api.admin().body(body(P + "viewer")).post("/qawk/v1/manifests")
                .then().statusCode(201).extract().jsonPath().getLong("id");
        List<String> before = tables();
        Api.viewer().body(body(P + "viewer-new")).post("/qawk/v1/manifests").then().statusCode(403);
        Api.viewer().body(body(P + "viewer")).put("/qawk/v1/manifests/" + id).then().statusCode(403);
        Api.viewer().delete("/qawk/v1/manifests/" + id).then().statusCode(403);
        Api.anonymous().get("/qawk/v1/manifests").then().statusCode(401);
        assertThat(tables()).isEqualTo(before);
    }

    // ---- an update never drops a setting it does not name (issue 56) -------------------------------------------

    /** JSON Merge Patch, RFC 7396. */
    private static final String MERGE_PATCH = "application/merge-patch+json";

    /** A manifest whose app component is verified. */
    private long verified(String name) {
        return Api.admin().body("""
                {"name": "%s", "systemTypeId": %d, "components": [
                  {"componentType": "device2", "distributionSetId": %d, "order": 1},
                  {"componentType": "device1", "distributionSetId": %d, "order": 2,
                   "verify": "attribute.app_version==2.0"}]}
                """.formatted(name, typeId, fw, app)).post("/qawk/v1/manifests").then().statusCode(201)
                .extract().jsonPath().getLong("id");
    }

    private Map<String, Object> read(long id) {
        Map<String, Object> view = new HashMap<>(Api.viewer().get("/qawk/v1/manifests/" + id).then().statusCode(200)
                .extract().jsonPath().getMap(""));
        view.remove("updatedAt");
        return view;
    }

    @Test
    void aPutThatLeavesOutAComponentsVerificationQueryKeepsIt() {
        long id = verified(P + "keep");

        // the app's set changes; the body names the components as a create would, without verify
        Api.admin().body("""
                {"components": [
                  {"componentType": "device2", "distributionSetId": %d, "order": 1},
                  {"componentType": "device1", "distributionSetId": %d, "order": 2},
                  {"componentType": "device3", "distributionSetId": %d, "order": 1}]}
                """.formatted(fw, app, display)).put("/qawk/v1/manifests/" + id).then().statusCode(200)
                .body("name", equalTo(P + "keep"))
                .body("systemTypeId", equalTo((int) typeId))
                .body("components.find { it.componentType == 'device1' }.verify", equalTo("attribute.app_version==2.0"))
                .body("components.find { it.componentType == 'device3' }.verify", nullValue());

        Api.admin().body("""
                {"components": [
                  {"componentType": "device2"}, {"componentType": "device1", "verify": null}]}
                """).put("/qawk/v1/manifests/" + id).then().statusCode(200)
                .body("components.componentType", contains("device2", "device1"))
                .body("components.find { it.componentType == 'device1' }.distributionSetId", equalTo((int) app))
                .body("components.find { it.componentType == 'device1' }.verify", nullValue());
    }

    @Test
    void aMergePatchChangesOneFieldAndNullClears() {
        long id = verified(P + "patch");
        Map<String, Object> before = read(id);

        Api.admin().contentType(MERGE_PATCH).body("{\"name\": \"" + P + "patched\"}")
                .patch("/qawk/v1/manifests/" + id).then().statusCode(200).body("name", equalTo(P + "patched"));
        Map<String, Object> after = read(id);
        after.put("name", P + "patch");
        assertThat(after).as("everything but the name as before").isEqualTo(before);

        Api.admin().contentType(MERGE_PATCH).body("""
                {"components": [{"componentType": "device1", "verify": null}, {"componentType": "device2"}]}
                """).patch("/qawk/v1/manifests/" + id).then().statusCode(200)
                .body("components.find { it.componentType == 'device1' }.verify", nullValue())
                .body("components.find { it.componentType == 'device1' }.order", equalTo(2));
    }

    @Test
    void aBadMergePatchIsAProblemNamingTheFieldAndChangesNothing() {
        long id = verified(P + "bad-patch");
        List<String> before = tables();
        String[][] cases = {
                {"{\"systemTypeId\": null}", "systemTypeId", "required"},
                {"{\"components\": [{\"componentType\": \"device1\", \"order\": 0}]}", "components[0].order", "1"},
                {"{\"components\": [{\"componentType\": \"device1\", \"distributionSetId\": \"app\"}]}",
                        "components[0].distributionSetId", "must be"},
                {"{\"colour\": \"red\"}", "colour", "not a known field"},
        };
        for (String[] c : cases) {
            Api.admin().contentType(MERGE_PATCH).body(c[0]).patch("/qawk/v1/manifests/" + id).then().statusCode(400)
                    .contentType("application/problem+json")
                    .body("errors.find { it.field == '" + c[1] + "' }.message", containsString(c[2]));
        }
        Api.admin().body("{\"name\": \"x\"}").patch("/qawk/v1/manifests/" + id).then().statusCode(415)
                .contentType("application/problem+json");
        assertThat(tables()).isEqualTo(before);
    }
}
