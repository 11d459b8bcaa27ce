package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.qawk.orchestrator.testsupport.Lanes.channelView;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static io.qawk.orchestrator.testsupport.Lanes.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Overlaps between Qawk's own drivers are said before they meet, against the real hawkBit with simulated lanes: a
 * channel or a deployment whose systems another running deployment drives shows, at its creation and in its plan,
 * which one drives each of them (the start gate's own answer), instead of the operator learning it from a waiting run.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class OverlapsEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(150);

    private static String run(int deployment, String system, String field) {
        return runs(deployment).getString("find { it.system == '" + system + "' }." + field);
    }

    private static void awaitRun(int deployment, String system, String state) {
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(300)).until(() -> state.equals(run(deployment, system, "state")));
    }

    private static JsonPath plan(int deployment) {
        return Api.viewer().get("/qawk/v1/systemdeployments/" + deployment + "/plan").then().statusCode(200)
                .extract().jsonPath();
    }

    /** A 409 (the release engine changed the release at that moment) is read again and retried, as a client would. */
    private static void release(int channelId, String body) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            int status = Api.admin().body(body).put("/qawk/v1/fleets/" + channelId).then().extract().statusCode();
            assertThat(status).as("PUT /qawk/v1/fleets/" + channelId).isIn(200, 409);
            return status == 200;
        });
    }

    /** The one overlap of {@code json} (at {@code path}): that system, driven by that deployment, under way there. */
    private static void assertDrivenBy(JsonPath json, String path, String system, int deployment, Integer channel,
                                       String channelName, boolean underWay) {
        assertThat(json.getString(path + ".system")).isEqualTo(system);
        assertThat(json.getInt(path + ".drivenBy.deploymentId")).isEqualTo(deployment);
        assertThat(json.getString(path + ".drivenBy.name")).isEqualTo(Lanes.deployment(deployment).getString("name"));
        assertThat((Integer) json.get(path + ".drivenBy.fleetId")).isEqualTo(channel);
        assertThat(json.getString(path + ".drivenBy.fleet")).isEqualTo(channelName);
        assertThat(json.getBoolean(path + ".underWay")).isEqualTo(underWay);
    }

    @Test
    void twoOverlappingChannelsShowWhoDrives() {
        try (Lanes lanes = new Lanes("ovl-ch-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "beta").system("lane-02", "c01", "prod");
            int beta = lanes.channel("beta", "\"orchestrator\": {\"maxParallel\": 2, \"maxFailed\": 0}");
            lanes.discovered(2);
            lanes.behaviour("lane-01", "term-a", Behaviour.hold()); // keeps lane-01 under way until we let it go
            int manifest = lanes.manifest("2.0", "2");
            release(beta, "{\"manifestId\": " + manifest + "}");
            int betaDeployment = channelView(beta).getInt("release.deploymentId");
            awaitRun(betaDeployment, "lane-01", "RUNNING");
            String betaName = Lanes.deployment(betaDeployment).getString("name");
            String drivenBy = "deployment \"" + betaName + "\" (#" + betaDeployment + ") of channel " + lanes.prefix + "beta";

            // the centre of lane-01 moves to prod while beta's release is updating it; prod is created after that
            lanes.move("lane-01", "prod");
            JsonPath created = Api.admin().body("{\"name\": \"" + lanes.prefix + "prod\", \"match\": \"attribute.channel=="
                    + lanes.prefix + "prod\", \"orchestrator\": {\"maxParallel\": 2, \"maxFailed\": 0}}")
                    .post("/qawk/v1/fleets").then().statusCode(201).extract().jsonPath();
            int prod = created.getInt("id");
            assertThat(created.getList("overlaps")).as("lane-02 is prod's and nobody else's").hasSize(1);
            assertDrivenBy(created, "overlaps[0]", "lane-01", betaDeployment, beta, lanes.prefix + "beta", true);
            assertThat(created.getString("overlaps[0].reason"))
                    .isEqualTo("driven by " + drivenBy + " until it is done with this system");
            assertThat(created.getString("overlapsSummary")).isEqualTo("1 system of this channel is driven by " + drivenBy
                    + ": a release here takes it once that one is done with it");

            sync();
            JsonPath prodView = channelView(prod);
            assertThat(prodView.getList("overlaps")).hasSize(1);
            assertDrivenBy(prodView, "overlaps[0]", "lane-01", betaDeployment, beta, lanes.prefix + "beta", true);
            assertThat(channelView(beta).getList("overlaps")).as("beta's own release is not an overlap").isEmpty();
            assertThat(Api.viewer().get("/qawk/v1/fleets").then().statusCode(200).extract().jsonPath()
                    .getList("find { it.id == " + prod + " }.overlaps")).as("the listing does not ask").isNull();

            release(prod, "{\"manifestId\": " + manifest + "}");
            int prodDeployment = channelView(prod).getInt("release.deploymentId");
            JsonPath prodPlan = plan(prodDeployment);
            assertThat(prodPlan.getList("systems.system")).containsExactlyInAnyOrder("lane-01", "lane-02");
            assertThat(prodPlan.getList("overlaps")).hasSize(1);
            assertDrivenBy(prodPlan, "overlaps[0]", "lane-01", betaDeployment, beta, lanes.prefix + "beta", true);
            assertThat(prodPlan.getString("overlapsSummary")).isEqualTo("1 system is driven by " + drivenBy + ": it waits for it");
            // the engine's answer is the same: prod's run waits for beta's deployment
            String waiting = "waiting for deployment \"" + betaName + "\" (#" + betaDeployment + ") to finish with this system";
            await().atMost(WITHIN).until(() -> waiting.equals(run(prodDeployment, "lane-01", "reason")));
            assertThat(plan(betaDeployment).getList("overlaps")).isEmpty();

            // once beta's deployment is done with lane-01, nobody else drives it
            lanes.behaviour("lane-01", "term-a", Behaviour.succeed());
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                assertThat(plan(prodDeployment).getList("overlaps")).isEmpty();
                assertThat(channelView(prod).getList("overlaps")).isEmpty();
            });
            assertThat(run(betaDeployment, "lane-01", "state")).isEqualTo("SUCCEEDED");
        }
    }

    @Test
    void aHandMadeDeploymentOverlappingARunningOneSaysSoAtCreationAndInItsPlan() {
        try (Lanes lanes = new Lanes("ovl-hand-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c02").system("lane-03", "c03");
            lanes.discovered(3);
            lanes.behaviour("lane-01", "term-a", Behaviour.succeedAfter(Duration.ofSeconds(45)));
            int to2 = lanes.manifest("2.0", "2");
            // one at a time over c01 and c02: lane-01 is under way, lane-02 waits for its slot
            int first = lanes.deploy(to2, "\"groups\": [\"c01\", \"c02\"], \"maxParallel\": 1");
            awaitRun(first, "lane-01", "RUNNING");
            assertThat(run(first, "lane-02", "state")).isEqualTo("PENDING");
            String by = "deployment \"" + lanes.prefix + "deployment\" (#" + first + ")";
            String summary = "1 system is driven by " + by + ": it waits for it; 1 system is also pending in " + by
                    + ": the first to start it drives it";
            String body = "{\"name\": \"" + lanes.prefix + "everything\", \"manifestId\": " + to2 + ", \"maxParallel\": 3}";

            int before = Api.viewer().get("/qawk/v1/systemdeployments").then().statusCode(200).extract().jsonPath()
                    .getList("id").size();
            JsonPath preview = Api.admin().body(body).post("/qawk/v1/systemdeployments/plan").then().statusCode(200)
                    .extract().jsonPath();
            assertThat(Api.viewer().get("/qawk/v1/systemdeployments").then().extract().jsonPath().getList("id"))
                    .as("the preview stores nothing").hasSize(before);
            JsonPath created = Api.admin().body(body).post("/qawk/v1/systemdeployments").then().statusCode(201)
                    .extract().jsonPath();
            int second = created.getInt("id");
            JsonPath draftPlan = plan(second);
            for (JsonPath answer : new JsonPath[] {preview, created, draftPlan}) {
                assertThat(answer.getList("overlaps.system")).containsExactly("lane-01", "lane-02");
                assertDrivenBy(answer, "overlaps[0]", "lane-01", first, null, null, true);
                assertThat(answer.getString("overlaps[0].reason"))
                        .isEqualTo("driven by " + by + " until it is done with this system");
                assertDrivenBy(answer, "overlaps[1]", "lane-02", first, null, null, false);
                assertThat(answer.getString("overlaps[1].reason"))
                        .isEqualTo("pending in " + by + " too: the first to start it drives it, the other waits");
                assertThat(answer.getString("overlapsSummary")).isEqualTo(summary);
            }
            assertThat(Lanes.deployment(second).getString("overlapsSummary")).isEqualTo(summary);

            // one that shares nothing with it says nothing
            JsonPath apart = Api.admin().body("{\"name\": \"" + lanes.prefix + "c03\", \"manifestId\": " + to2
                    + ", \"groups\": [\"c03\"]}").post("/qawk/v1/systemdeployments").then().statusCode(201).extract().jsonPath();
            assertThat(apart.getList("overlaps")).isEmpty();
            assertThat(apart.getString("overlapsSummary")).isNull();
            JsonPath apartPlan = plan(apart.getInt("id"));
            assertThat(apartPlan.getList("systems.system")).containsExactly("lane-03");
            assertThat(apartPlan.getList("overlaps")).isEmpty();
            assertThat(apartPlan.getString("overlapsSummary")).isNull();

            // started, the engine gives the same answer for lane-01, and the plan still says who drives it
            Api.admin().post("/qawk/v1/systemdeployments/" + second + "/start").then().statusCode(200);
            String waiting = "waiting for deployment \"" + lanes.prefix + "deployment\" (#" + first + ") to finish with this system";
            await().atMost(WITHIN).until(() -> waiting.equals(run(second, "lane-01", "reason")));
            JsonPath started = plan(second);
            assertThat(started.getString("overlaps.find { it.system == 'lane-01' }.drivenBy.deploymentId"))
                    .isEqualTo(String.valueOf(first));
            assertThat(plan(first).getList("overlaps.system")).doesNotContain("lane-01");
        }
    }
}
