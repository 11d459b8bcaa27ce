package io.qawk.orchestrator.rules;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * Compatibility rules against a real hawkBit with simulated lanes: "app 2 needs terminals on 2". Seven lanes: three on
 * 1, three on 2, and one on 2 whose terminal was given the old set by hand in hawkBit. The census counts each mix,
 * the listing filters by manifest and by breach, manifests are checked against the rules, and a set assigned by hand
 * that breaks a rule makes its system broken at the next sync. The drift test runs last: it breaks another lane.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RulesEndToEndTest {

    static final String WHY = "app 2 speaks the v2 terminal protocol";
    private Lanes lanes;
    private String p;
    private int v1;
    private int v2;

    @BeforeEach
    void lanesOnTheirVersions() {
        if (lanes != null) {
            return;
        }
        lanes = new Lanes("rul-").withSetsAndType();
        p = lanes.prefix;
        Api.admin().body(typeWithRules(p + "app:[2,)", p + "term:[2,)")).put("/qawk/v1/systemtypes/" + lanes.typeId)
                .then().statusCode(200).body("rules[0].why", equalTo(WHY))
                .body("rules[0].if.lane", equalTo(p + "app:[2,)"));
        for (String s : List.of("s1", "s2", "s3", "s4", "s5", "s6", "s7")) {
            lanes.system(s, "c01");
        }
        lanes.discovered(7);
        install("1", "s1", "s2", "s3");
        install("2", "s4", "s5", "s6", "s7");
        // s6's second terminal is given the old firmware directly in hawkBit, as a technician might
        assignByHand(lanes.id("s6", "term-b"), "term:1");
        v2 = lanes.manifest("m-2.0", "2");
        v1 = Api.admin().body("""
                {"name": "%sm-1.0", "systemTypeId": %d, "components": [
                  {"componentType": "terminal", "distributionSetId": %d},
                  {"componentType": "display", "distributionSetId": %d},
                  {"componentType": "lane", "distributionSetId": %d}]}
                """.formatted(p, lanes.typeId, lanes.set("term:1"), lanes.set("disp:1"), lanes.set("app:1")))
                .post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
        Lanes.sync();
    }

    @AfterAll
    void stop() {
        lanes.close();
    }

    private String typeWithRules(String ifApp, String thenTerm) {
        return """
                {"name": "%1$slane", "systemKey": "attribute.device", "groupKey": "attribute.centerid",
                 "components": [
                   {"componentType": "lane", "match": "attribute.device_type==%1$slane"},
                   {"componentType": "terminal", "match": "attribute.device_type==%1$sterminal"},
                   {"componentType": "display", "match": "attribute.device_type==%1$sdisplay"}],
                 "rules": [{"if": {"lane": "%2$s"}, "then": {"terminal": "%3$s"}, "why": "%4$s"}]}
                """.formatted(p, ifApp, thenTerm, WHY);
    }

    private void install(String version, String... systems) {
        Map<String, String> roleSet = Map.of("lane", "app", "term-a", "term", "term-b", "term", "display", "disp");
        roleSet.forEach((role, set) -> lanes.hawkbit.assign(lanes.set(set + ":" + version),
                Arrays.stream(systems).map(s -> lanes.id(s, role)).toList()));
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            for (String s : systems) {
                for (String role : roleSet.keySet()) {
                    assertThat(lanes.hawkbit.installedDsId(lanes.id(s, role))).as(s + " " + role)
                            .contains(lanes.set(roleSet.get(role) + ":" + version));
                }
            }
        });
    }

    private void assignByHand(String controllerId, String set) {
        lanes.hawkbit.assign(lanes.set(set), List.of(controllerId));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(lanes.hawkbit.installedDsId(controllerId)).contains(lanes.set(set)));
    }

    private JsonPath systems(String query) {
        return Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems?limit=100" + query)
                .then().statusCode(200).extract().jsonPath();
    }

    @Test
    @Order(1)
    void theCensusCountsEachMixAfterASync() {
        JsonPath census = Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/versions")
                .then().statusCode(200).extract().jsonPath();
        assertThat(census.getLong("systems")).isEqualTo(7);
        assertThat(census.getLong("broken")).isEqualTo(1);
        assertThat(census.getList("content")).hasSize(3);
        assertThat(census.getMap("content[0].versions")).isEqualTo(Map.of("lane", List.of(p + "app:1"),
                "terminal", List.of(p + "term:1"), "display", List.of(p + "disp:1")));
        assertThat(census.getInt("content[0].systems")).isEqualTo(3);
        assertThat(census.getList("content[0].manifests.name")).containsExactly(p + "m-1.0");
        assertThat(census.getMap("content[0].broken")).isNull();
        assertThat(census.getInt("content[1].systems")).isEqualTo(3);
        assertThat(census.getList("content[1].manifests.name")).containsExactly(p + "m-2.0");
        assertThat(census.getInt("content[2].systems")).isEqualTo(1);
        assertThat(census.getList("content[2].versions.terminal")).containsExactly(p + "term:1", p + "term:2");
        assertThat(census.getList("content[2].manifests")).isEmpty();
        assertThat(census.getInt("content[2].broken.rule")).isZero();
        assertThat(census.getString("content[2].broken.reason")).isEqualTo("lane runs " + p + "app:2 with terminal on "
                + p + "term:1 (rules[0] needs terminal on " + p + "term:[2,)) — " + WHY);

        assertThat(systems("&on=" + v1).getList("content.system")).containsExactly("s1", "s2", "s3");
        assertThat(systems("&on=" + v2).getList("content.system")).containsExactly("s4", "s5", "s7");
        assertThat(systems("&off=" + v2).getList("content.system")).containsExactly("s1", "s2", "s3", "s6");
        assertThat(systems("&off=" + v2).getInt("total")).isEqualTo(4);
        assertThat(systems("&broken=true").getList("content.system")).containsExactly("s6");
        assertThat(systems("&on=" + v2 + "&off=" + v1).getInt("total")).isEqualTo(3);

        JsonPath all = systems("");
        assertThat(all.getString("content.find { it.system == 's1' }.on.name")).isEqualTo(p + "m-1.0");
        assertThat(all.getMap("content.find { it.system == 's6' }.on")).isNull();
        assertThat(all.getString("content.find { it.system == 's6' }.broken.reason")).isEqualTo(
                lanes.id("s6", "lane") + " runs " + p + "app:2 with " + lanes.id("s6", "term-b") + " on " + p
                        + "term:1 (rules[0] needs terminal on " + p + "term:[2,)) — " + WHY);
        Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems/s6").then().statusCode(200)
                .body("broken.rule", equalTo(0)).body("versions.lane", equalTo(List.of(p + "app:2")))
                .body("on", equalTo(null));
        Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems/s4").then().statusCode(200)
                .body("on.name", equalTo(p + "m-2.0")).body("broken", equalTo(null));
    }

    @Test
    @Order(2)
    void badFiltersAreRefusedNamingThem() {
        Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems?on=x&off=999999&broken=maybe")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.field", Matchers.contains("on", "broken"));
        Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems?off=999999")
                .then().statusCode(400).body("errors[0].field", equalTo("off"))
                .body("errors[0].message", containsString("not a manifest of system type"));
    }

    @Test
    @Order(2)
    void aBackwardsManifestIsRefusedWithTheRulesWordsAndTheOrderThatWorks() {
        Api.admin().body(manifest("backwards", "2", 1, 2)).post("/qawk/v1/manifests").then().statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].field", equalTo("components[0].order"))
                .body("errors[0].message", containsString(WHY))
                .body("errors[0].message", containsString("put lane after terminal: order 3"));
        Api.admin().body(manifest("together", "2", 1, 1)).post("/qawk/v1/manifests").then().statusCode(400)
                .body("errors[0].field", equalTo("components[0].order"))
                .body("errors[0].message", containsString("put lane after terminal: order 2"));
        Api.viewer().get("/qawk/v1/manifests?systemTypeId=" + lanes.typeId).then().statusCode(200)
                .body("name", Matchers.containsInAnyOrder(p + "m-1.0", p + "m-2.0"));
        // an edit that turns a good manifest backwards is refused too, and changes nothing
        Api.admin().body(manifest("m-2.0", "2", 1, 2)).put("/qawk/v1/manifests/" + v2).then().statusCode(400);
        Api.viewer().get("/qawk/v1/manifests/" + v2).then().statusCode(200)
                .body("components.find { it.componentType == 'lane' }.order", equalTo(2));
    }

    @Test
    @Order(2)
    void aManifestWithoutOrdersIsGivenThem() {
        Api.viewer().get("/qawk/v1/manifests/" + v1).then().statusCode(200)
                .body("components.find { it.componentType == 'lane' }.order", equalTo(1))
                .body("components.find { it.componentType == 'terminal' }.order", equalTo(2))
                .body("components.find { it.componentType == 'display' }.order", equalTo(1));
        int id = Api.admin().body("""
                {"name": "%sderived-2.0", "systemTypeId": %d, "components": [
                  {"componentType": "lane", "distributionSetId": %d},
                  {"componentType": "terminal", "distributionSetId": %d}]}
                """.formatted(p, lanes.typeId, lanes.set("app:2"), lanes.set("term:2")))
                .post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
        Api.viewer().get("/qawk/v1/manifests/" + id).then().statusCode(200)
                .body("components.find { it.componentType == 'lane' }.order", equalTo(2))
                .body("components.find { it.componentType == 'terminal' }.order", equalTo(1));
        Api.admin().delete("/qawk/v1/manifests/" + id).then().statusCode(204);
    }

    @Test
    @Order(2)
    void badRulesAreRefusedNamingTheFieldAndNothingIsStored() {
        String bad = typeWithRules(p + "app:[2,)", p + "term:[2,)").replace("\"then\": {\"terminal\"",
                "\"then\": {\"device9\"");
        Api.admin().body(bad).put("/qawk/v1/systemtypes/" + lanes.typeId).then().statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].field", equalTo("rules[0].then.device9"));
        Api.admin().body(typeWithRules(p + "app:[2,1]", p + "term:[2,)")).put("/qawk/v1/systemtypes/" + lanes.typeId)
                .then().statusCode(400).body("errors[0].field", equalTo("rules[0].if.lane"))
                .body("errors[0].message", containsString("Range defies version ordering"));
        Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId).then().statusCode(200)
                .body("rules[0].then.terminal", equalTo(p + "term:[2,)"));
    }

    @Test
    @Order(3)
    void aSetAssignedByHandThatBreaksARuleMakesTheSystemBrokenWithinOneSync() {
        assertThat(systems("&broken=true").getList("content.system")).containsExactly("s6");
        assertThat(brokenGauge()).isEqualTo(1.0);

        assignByHand(lanes.id("s7", "term-a"), "term:1");
        Lanes.sync();

        assertThat(systems("&broken=true").getList("content.system")).containsExactly("s6", "s7");
        assertThat(systems("").getString("content.find { it.system == 's7' }.broken.reason"))
                .startsWith(lanes.id("s7", "lane") + " runs " + p + "app:2 with " + lanes.id("s7", "term-a") + " on "
                        + p + "term:1");
        assertThat(brokenGauge()).isEqualTo(2.0);
        // nothing was done to it: the terminal still runs what it was given by hand
        assertThat(lanes.hawkbit.installedDsId(lanes.id("s7", "term-a"))).contains(lanes.set("term:1"));
    }

    @Test
    @Order(4)
    void aSystemWhoseUntouchedTerminalBreaksARuleForTheNewAppIsHeldAndTheOthersAreUpdated() {
        // s2's terminals are given the new firmware first, so the new app may follow there; s1's stay on the old one
        lanes.hawkbit.assign(lanes.set("term:2"), List.of(lanes.id("s2", "term-a"), lanes.id("s2", "term-b")));
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            assertThat(lanes.hawkbit.installedDsId(lanes.id("s2", "term-a"))).contains(lanes.set("term:2"));
            assertThat(lanes.hawkbit.installedDsId(lanes.id("s2", "term-b"))).contains(lanes.set("term:2"));
        });
        Lanes.sync();
        // the new app and display, terminals untouched: the manifest check leaves the terminals to the plan
        int appOnly = Api.admin().body("""
                {"name": "%sapp-only-2.0", "systemTypeId": %d, "components": [
                  {"componentType": "display", "distributionSetId": %d, "order": 1},
                  {"componentType": "lane", "distributionSetId": %d, "order": 2}]}
                """.formatted(p, lanes.typeId, lanes.set("disp:2"), lanes.set("app:2")))
                .post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
        String request = """
                {"name": "%sheld", "manifestId": %d, "systems": ["s1", "s2"], "maxParallel": 2}
                """.formatted(p, appOnly);
        String held = "held: s1 would run " + p + "app:2 with " + lanes.id("s1", "term-a") + " on " + p
                + "term:1 at order 2 (rules[0] needs terminal on " + p + "term:[2,)) — " + WHY;

        JsonPath preview = Api.admin().body(request).post("/qawk/v1/systemdeployments/plan")
                .then().statusCode(200).extract().jsonPath();
        assertThat(preview.getBoolean("systems.find { it.system == 's1' }.held")).isTrue();
        assertThat(preview.getString("systems.find { it.system == 's1' }.waiting")).isEqualTo(held);
        assertThat(preview.getBoolean("systems.find { it.system == 's2' }.held")).isFalse();
        int id = Api.admin().body(request).post("/qawk/v1/systemdeployments").then().statusCode(201)
                .extract().path("id");
        JsonPath plan = Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/plan").then().statusCode(200)
                .extract().jsonPath();
        assertThat(plan.getBoolean("systems.find { it.system == 's1' }.held")).isTrue();
        assertThat(plan.getString("systems.find { it.system == 's1' }.waiting")).isEqualTo(held);
        assertThat(plan.getString("systems.find { it.system == 's2' }.waiting")).isNull();
        Map<String, Integer> actionsBefore = new HashMap<>();
        for (String role : List.of("lane", "term-a", "term-b", "display")) {
            actionsBefore.put(role, lanes.hawkbit.actions(lanes.id("s1", role)).size());
        }

        Api.admin().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(200);
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(Lanes.runs(id).getString("find { it.system == 's2' }.state")).isEqualTo("SUCCEEDED"));

        JsonPath runs = Lanes.runs(id);
        assertThat(runs.getString("find { it.system == 's1' }.state")).isEqualTo("PENDING");
        assertThat(runs.getString("find { it.system == 's1' }.reason")).isEqualTo(held);
        for (String role : List.of("lane", "term-a", "term-b", "display")) {
            assertThat(lanes.hawkbit.actions(lanes.id("s1", role))).as("s1 %s was assigned nothing", role)
                    .hasSize(actionsBefore.get(role));
        }
        assertThat(lanes.hawkbit.installedDsId(lanes.id("s2", "lane"))).contains(lanes.set("app:2"));
        // the held system is counted in the deployment's words and numbers, and in the listing's (issue 56)
        JsonPath deployment = Api.viewer().get("/qawk/v1/systemdeployments/" + id).then().statusCode(200)
                .extract().jsonPath();
        assertThat(deployment.getString("state")).isEqualTo("RUNNING");
        assertThat(deployment.getString("summary")).isEqualTo("1 of 2 updated, 0 rolled back, 1 held");
        assertThat(deployment.getInt("counts.held")).isEqualTo(1);
        assertThat(Api.viewer().get("/qawk/v1/systemdeployments").then().statusCode(200).extract().jsonPath()
                .getString("find { it.id == " + id + " }.summary")).isEqualTo("1 of 2 updated, 0 rolled back, 1 held");
        Api.admin().post("/qawk/v1/systemdeployments/" + id + "/abort").then().statusCode(200);

        // s6 breaks the rule now (a terminal given the old firmware by hand); the full manifest mends it at order 1
        int mend = Api.admin().body("""
                {"name": "%smend", "manifestId": %d, "systems": ["s6"]}
                """.formatted(p, v2)).post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");
        JsonPath mendPlan = Api.viewer().get("/qawk/v1/systemdeployments/" + mend + "/plan").then().statusCode(200)
                .extract().jsonPath();
        assertThat(mendPlan.getBoolean("systems[0].held")).isFalse();
        assertThat(mendPlan.getString("systems[0].mends")).startsWith("breaks a rule now and this manifest mends it: "
                + lanes.id("s6", "lane") + " runs " + p + "app:2 with " + lanes.id("s6", "term-b") + " on " + p + "term:1");
        Api.admin().post("/qawk/v1/systemdeployments/" + mend + "/start").then().statusCode(200);
        Lanes.awaitState(mend, "FINISHED", Duration.ofSeconds(120));
        assertThat(Lanes.runs(mend).getString("[0].state")).isEqualTo("SUCCEEDED");
        assertThat(lanes.hawkbit.installedDsId(lanes.id("s6", "term-b"))).contains(lanes.set("term:2"));
    }

    @Test
    @Order(5)
    void removingTheRuleThatHoldsAndBreaksSystemsIsInTheAuditWithWhatItExposed() {
        // s7 is broken by rules[0] (order 3; s6 was mended in order 4); s1 is held by it in a deployment, paused so
        // nothing starts afterwards
        Lanes.sync();
        int appOnly = Api.admin().body("""
                {"name": "%sapp-only-2.0-b", "systemTypeId": %d, "components": [
                  {"componentType": "display", "distributionSetId": %d, "order": 1},
                  {"componentType": "lane", "distributionSetId": %d, "order": 2}]}
                """.formatted(p, lanes.typeId, lanes.set("disp:2"), lanes.set("app:2")))
                .post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
        int id = Api.admin().body("""
                {"name": "%sheld-again", "manifestId": %d, "systems": ["s1"]}
                """.formatted(p, appOnly)).post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");
        Api.admin().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(200);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(Lanes.runs(id).getString("[0].reason")).startsWith("held: s1 "));
        Api.admin().post("/qawk/v1/systemdeployments/" + id + "/pause").then().statusCode(200);
        assertThat(systems("&broken=true").getList("content.system")).containsExactly("s7");

        String since = Instant.now().minusSeconds(2).toString();
        Api.admin().contentType("application/merge-patch+json").body("{\"rules\": null}")
                .patch("/qawk/v1/systemtypes/" + lanes.typeId).then().statusCode(200).body("rules", equalTo(List.of()));

        String detail = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() ->
                Api.viewer().get("/qawk/v1/audit?actor=admin&limit=500&since=" + since).then().statusCode(200).extract().jsonPath()
                        .<String>get("content.findAll { it.target == 'systemtypes/" + lanes.typeId
                                + "' && it.method == 'PATCH' }.last().detail"), d -> d != null);
        assertThat(detail).isEqualTo("rules[0] removed (\"" + WHY + "\"): exposed s7 no longer counts as broken"
                + " (the census broke it by this rule); s1 no longer held (deployment " + id + ")");
        assertThat(systems("&broken=true").getList("content.system")).isEmpty();
        Api.admin().post("/qawk/v1/systemdeployments/" + id + "/abort").then().statusCode(200);

        // a change that removes no rule says nothing of rules
        Api.admin().contentType("application/merge-patch+json").body("{\"guard\": \"watch\"}")
                .patch("/qawk/v1/systemtypes/" + lanes.typeId).then().statusCode(200);
        assertThat(Api.viewer().get("/qawk/v1/audit?actor=admin&limit=500&since=" + since).then().statusCode(200).extract().jsonPath()
                .<String>get("content.findAll { it.target == 'systemtypes/" + lanes.typeId + "' }.last().detail"))
                .isNull();
    }

    private double brokenGauge() {
        String metrics = Api.anonymous().get("/q/metrics").then().statusCode(200).extract().asString();
        String line = metrics.lines().filter(l -> l.startsWith("qawk_systems_broken{")
                && l.contains("system_type=\"" + p + "lane\"")).findFirst().orElse(null);
        assertThat(line).as("qawk_systems_broken of %slane in\n%s", p, metrics).isNotNull();
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    private String manifest(String name, String version, int laneOrder, int terminalOrder) {
        return """
                {"name": "%s%s", "systemTypeId": %d, "components": [
                  {"componentType": "lane", "distributionSetId": %d, "order": %d},
                  {"componentType": "terminal", "distributionSetId": %d, "order": %d}]}
                """.formatted(p, name, lanes.typeId, lanes.set("app:" + version), laneOrder,
                lanes.set("term:" + version), terminalOrder);
    }
}
