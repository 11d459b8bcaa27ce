package io.qawk.orchestrator.manifest;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * "What they run" saved as a manifest, against the real hawkBit: lanes on their factory sets, which no manifest names,
 * become a baseline in one call, and the census then says they are on it. A mix whose devices disagree, a mix no system
 * runs, a missing name or a viewer are refused, creating nothing.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CensusManifestEndToEndTest {

    private Lanes lanes;
    private String p;

    @BeforeEach
    void lanesOnTheirFactorySets() {
        if (lanes != null) {
            return;
        }
        lanes = new Lanes("cbm-").withSetsAndType();
        p = lanes.prefix;
        lanes.system("s1", "c01").system("s2", "c01").system("s3", "c01");
        lanes.discovered(3);
        lanes.preinstall("1");
        // s3's first terminal was given the new firmware by hand: its terminals disagree
        String term = lanes.id("s3", "term-a");
        lanes.hawkbit.assign(lanes.set("term:2"), List.of(term));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(lanes.hawkbit.installedDsId(term)).contains(lanes.set("term:2")));
        Lanes.sync();
    }

    @Test
    void whatTheyRunIsSavedAsABaselineAndTheCensusThenSaysTheyAreOnIt() {
        Map<String, List<String>> factory = Map.of("lane", List.of(p + "app:1"), "terminal", List.of(p + "term:1"),
                "display", List.of(p + "disp:1"));
        assertThat(census().getList("content.find { it.systems == 2 }.manifests")).isEmpty();

        int id = Api.admin().body(Map.of("name", p + "baseline", "systemTypeId", lanes.typeId, "versions", factory))
                .post("/qawk/v1/manifests/from-census").then().statusCode(201)
                .header("Location", containsString("/qawk/v1/manifests/"))
                .body("name", equalTo(p + "baseline")).extract().path("id");
        JsonPath m = Api.viewer().get("/qawk/v1/manifests/" + id).then().statusCode(200).extract().jsonPath();
        assertThat(m.getList("components.distributionSet")).containsExactlyInAnyOrder(p + "app:1", p + "term:1",
                p + "disp:1");
        assertThat(m.getList("components.distributionSetId", Long.class)).containsExactlyInAnyOrder(
                lanes.set("app:1"), lanes.set("term:1"), lanes.set("disp:1"));
        assertThat(m.getList("components.order", Integer.class)).containsOnly(1);
        assertThat(census().getList("content.find { it.systems == 2 }.manifests.name")).containsExactly(p + "baseline");
        Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems?on=" + id).then().statusCode(200)
                .body("content.system", Matchers.containsInAnyOrder("s1", "s2"));
    }

    @Test
    void aMixWhoseDevicesDisagreeIsRefusedAtItsComponent() {
        Map<String, List<String>> s3 = Map.of("lane", List.of(p + "app:1"),
                "terminal", List.of(p + "term:1", p + "term:2"), "display", List.of(p + "disp:1"));
        Api.admin().body(Map.of("name", p + "mixed", "systemTypeId", lanes.typeId, "versions", s3))
                .post("/qawk/v1/manifests/from-census").then().statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].field", equalTo("versions.terminal"))
                .body("errors[0].message", containsString("its devices run " + p + "term:1, " + p + "term:2"));
        assertNoManifest(p + "mixed");
    }

    @Test
    void aMixNoSystemRunsAMissingNameAndAViewerAreRefused() {
        Map<String, List<String>> nobody = Map.of("lane", List.of(p + "app:2"), "terminal", List.of(p + "term:2"),
                "display", List.of(p + "disp:2"));
        Api.admin().body(Map.of("name", p + "nobody", "systemTypeId", lanes.typeId, "versions", nobody))
                .post("/qawk/v1/manifests/from-census").then().statusCode(409)
                .contentType("application/problem+json")
                .body("detail", containsString("no system of " + p + "lane runs this mix now"));
        assertNoManifest(p + "nobody");
        Map<String, List<String>> factory = Map.of("lane", List.of(p + "app:1"), "terminal", List.of(p + "term:1"),
                "display", List.of(p + "disp:1"));
        Api.admin().body(Map.of("systemTypeId", lanes.typeId, "versions", factory))
                .post("/qawk/v1/manifests/from-census").then().statusCode(400)
                .body("errors[0].field", equalTo("name"));
        Api.viewer().body(Map.of("name", p + "viewer", "systemTypeId", lanes.typeId, "versions", factory))
                .post("/qawk/v1/manifests/from-census").then().statusCode(403);
        assertNoManifest(p + "viewer");
    }

    private JsonPath census() {
        return Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/versions").then().statusCode(200)
                .extract().jsonPath();
    }

    private void assertNoManifest(String name) {
        assertThat(Api.viewer().get("/qawk/v1/manifests?systemTypeId=" + lanes.typeId).then().statusCode(200)
                .extract().jsonPath().getList("name")).doesNotContain(name);
    }
}
