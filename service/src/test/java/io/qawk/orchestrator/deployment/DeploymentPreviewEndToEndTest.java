package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.LaneFleet;
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
        try (LaneFleet fleet = new LaneFleet("e2e-preview-").withSetsAndType()) {
            fleet.systemOf("lane-01", "c01", "lane").systemOf("lane-02", "c02", "lane", "display");
            fleet.discovered(2);
            int manifest = fleet.manifest("2.0", "2");
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
}
