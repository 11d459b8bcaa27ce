package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.qawk.orchestrator.testsupport.Tables;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * {@code POST …/systemdeployments/plan}: what a deployment request would do, before anything exists — the same plan a
 * draft made of it shows, the same field errors its creation answers, and nothing stored either way.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class DeploymentPreviewEndToEndTest {

    static final String[] TABLES = {"system_deployment", "system_run", "run_device", "run_event", "manifest_revision"};

    @Inject
    DataSource dataSource;

    @Test
    void aRequestIsPlannedLikeItsDraftWithoutStoringAnything() {
        try (Lanes lanes = new Lanes("e2e-preview-").withSetsAndType()) {
            lanes.systemOf("lane-01", "c01", "lane").systemOf("lane-02", "c02", "lane", "display");
            lanes.discovered(2);
            int manifest = lanes.manifest("2.0", "2");
            String body = "{\"name\": \"e2e-preview\", \"manifestId\": " + manifest + ", \"groups\": [\"c02\"]}";
            List<String> before = Tables.dump(dataSource, TABLES);

            JsonPath plan = Api.admin().body(body).post("/qawk/v1/systemdeployments/plan").then().statusCode(200)
                    .extract().jsonPath();
            assertThat(plan.getString("manifest")).isEqualTo("e2e-preview-2.0");
            assertThat(plan.getList("orders")).containsExactly(1, 2);
            assertThat(plan.getList("systems.system")).containsExactly("lane-02");
            assertThat(plan.getList("systems[0].devices.controllerId"))
                    .containsExactly("e2e-preview-lane-02-display", "e2e-preview-lane-02-lane");
            assertThat(plan.getList("systems[0].devices.gets")).containsExactly("e2e-preview-disp:2", "e2e-preview-app:2");
            assertThat(plan.getList("outOfScope.system")).containsExactly("lane-01");
            assertThat(plan.getString("outOfScope[0].why")).isEqualTo("its centre c01 is not among the deployment's groups");
            assertThat(plan.getMap("")).doesNotContainKey("deploymentId");
            assertThat(Tables.dump(dataSource, TABLES)).as("a preview stores nothing").isEqualTo(before);

            // refused exactly as creating it would be, field by field; still nothing stored
            Api.admin().body("{\"name\": \"\", \"manifestId\": " + manifest + ", \"maxParallel\": 0}")
                    .post("/qawk/v1/systemdeployments/plan").then().statusCode(400)
                    .contentType("application/problem+json")
                    .body("errors.find { it.field == 'maxParallel' }.message", equalTo("must be between 1 and 10000"))
                    .body("errors.find { it.field == 'name' }.message", equalTo("is required"));
            Api.admin().body("{\"name\": \"x\", \"manifestId\": " + manifest + ", \"maxParalel\": 2}")
                    .post("/qawk/v1/systemdeployments/plan").then().statusCode(400)
                    .body("errors[0].field", equalTo("maxParalel"));
            Api.viewer().body(body).post("/qawk/v1/systemdeployments/plan").then().statusCode(403);
            assertThat(Tables.dump(dataSource, TABLES)).isEqualTo(before);

            // the same as the plan of the draft the same request creates
            int draft = Api.admin().body(body).post("/qawk/v1/systemdeployments").then().statusCode(201)
                    .extract().path("id");
            Map<String, Object> ofDraft = Api.viewer().get("/qawk/v1/systemdeployments/" + draft + "/plan").then()
                    .statusCode(200).extract().jsonPath().getMap("");
            ofDraft.remove("deploymentId");
            assertThat(plan.getMap("")).isEqualTo(ofDraft);
            Api.admin().post("/qawk/v1/systemdeployments/" + draft + "/abort").then().statusCode(200);
        }
    }

    /**
     * The three typos of issue 36: a channel that does not exist is refused; systems and centres no system of the
     * manifest's type has are named in the plan, with the one close name when there is one; starting a hand-made
     * deployment with nothing in scope is refused and leaves it a draft.
     */
    @Test
    void namesThatMatchNothingAreSaidAndNothingInScopeIsNotStarted() {
        try (Lanes lanes = new Lanes("e2e-typo-").withSetsAndType()) {
            lanes.systemOf("lane-07", "c01", "lane").systemOf("lane-18", "c02", "lane");
            lanes.discovered(2);
            int manifest = lanes.manifest("2.0", "2");
            String type = lanes.prefix + "lane";
            List<String> before = Tables.dump(dataSource, TABLES);

            // fleetId 424242: no such channel, refused and nothing stored
            for (String path : List.of("/qawk/v1/systemdeployments", "/qawk/v1/systemdeployments/plan")) {
                Api.admin().body("{\"name\": \"typo\", \"manifestId\": " + manifest + ", \"fleetId\": 424242}")
                        .post(path).then().statusCode(400).contentType("application/problem+json")
                        .body("detail", equalTo("fleetId: no channel 424242"))
                        .body("errors[0].field", equalTo("fleetId"));
            }
            assertThat(Tables.dump(dataSource, TABLES)).isEqualTo(before);

            // systems ["no-such-system"]: the plan says the name matches nothing; starting it is refused
            int system = draft(manifest, "\"systems\": [\"no-such-system\"]");
            JsonPath plan = plan(system);
            assertThat(plan.getList("systems")).isEmpty();
            assertThat(plan.getList("unknown")).containsExactly("no-such-system");
            assertThat(plan.getList("unknownNames.field")).containsExactly("systems");
            assertThat(plan.getString("unknownNames[0].why")).isEqualTo("no system of " + type + " is called so");
            assertThat(plan.getList("outOfScope.system")).containsExactlyInAnyOrder("lane-07", "lane-18");
            Api.admin().post("/qawk/v1/systemdeployments/" + system + "/start").then().statusCode(409)
                    .contentType("application/problem+json")
                    .body("detail", equalTo("nothing to do: no system of " + type
                            + " is in scope — unknown names: no-such-system"));
            assertThat(Lanes.deployment(system).getString("state")).isEqualTo("DRAFT");
            assertThat(Lanes.runs(system).getList("")).isEmpty();

            // groups ["no-such-centre"]: the same for a centre
            int centre = draft(manifest, "\"groups\": [\"no-such-centre\"]");
            assertThat(plan(centre).getList("unknown")).containsExactly("no-such-centre");
            assertThat(plan(centre).getString("unknownNames[0].why"))
                    .isEqualTo("no system of " + type + " is in a centre called so");
            Api.admin().post("/qawk/v1/systemdeployments/" + centre + "/start").then().statusCode(409)
                    .body("detail", equalTo("nothing to do: no system of " + type
                            + " is in scope — unknown names: no-such-centre"));

            // the one close name is suggested, two equally close are not; a real name next to unknown ones is planned
            JsonPath close = Api.admin().body("{\"name\": \"typo\", \"manifestId\": " + manifest
                            + ", \"systems\": [\"lane-7\", \"lane-18\"], \"groups\": [\"c1\", \"c03\", \"c02\"]}")
                    .post("/qawk/v1/systemdeployments/plan").then().statusCode(200).extract().jsonPath();
            assertThat(close.getList("unknown")).containsExactly("lane-7", "c1", "c03");
            assertThat(close.getString("unknownNames.find { it.name == 'lane-7' }.why"))
                    .isEqualTo("no system of " + type + " is called so; did you mean lane-07?");
            assertThat(close.getString("unknownNames.find { it.name == 'lane-7' }.suggestion")).isEqualTo("lane-07");
            assertThat(close.getString("unknownNames.find { it.name == 'c1' }.why"))
                    .isEqualTo("no system of " + type + " is in a centre called so; did you mean c01?");
            assertThat(close.getString("unknownNames.find { it.name == 'c03' }.why"))
                    .as("c01 and c02 are equally close").isEqualTo("no system of " + type + " is in a centre called so");
            assertThat(close.getList("systems.system")).containsExactly("lane-18");

            Api.admin().post("/qawk/v1/systemdeployments/" + system + "/abort").then().statusCode(200);
            Api.admin().post("/qawk/v1/systemdeployments/" + centre + "/abort").then().statusCode(200);
        }
    }

    private static int draft(int manifest, String scope) {
        return Api.admin().body("{\"name\": \"typo\", \"manifestId\": " + manifest + ", " + scope + "}")
                .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");
    }

    private static JsonPath plan(int deployment) {
        return Api.viewer().get("/qawk/v1/systemdeployments/" + deployment + "/plan").then().statusCode(200)
                .extract().jsonPath();
    }
}
