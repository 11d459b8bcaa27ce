package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.qawk.orchestrator.testsupport.Lanes.channelView;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * Four eyes (issue 42) against the real hawkBit: a deployment of a system type (or channel) that requires approval
 * waits in AWAITING_APPROVAL until an approver other than its creator approves it; the creator's own approval is
 * refused, an edit after approval takes it back, a rejection ends it. The approver is the basic-auth user
 * {@code approver}; {@code lead} is an admin who is an approver too (the %test profile).
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class ApprovalEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(150);

    /** The lane type again, requiring approval. */
    private static void requireApproval(Lanes lanes) {
        lanes.retype("\"approval\": \"required\"").body("approval", equalTo("required"));
    }

    private static int create(io.restassured.specification.RequestSpecification who, Lanes lanes, int manifest) {
        return who.body("{\"name\": \"" + lanes.prefix + "d\", \"manifestId\": " + manifest
                        + ", \"systems\": [\"lane-01\"]}")
                .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");
    }

    private static List<Map<String, Object>> events(int id) {
        return Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/events").then().statusCode(200)
                .extract().jsonPath().getList("");
    }

    @Test
    void approvalBySomeoneElseLetsTheDeploymentStartAndRun() {
        try (Lanes lanes = new Lanes("appr-ok-").withSetsAndType()) {
            requireApproval(lanes);
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            int manifest = lanes.manifest("2.0", "2");
            int id = create(Api.admin(), lanes, manifest);

            JsonPath waiting = Lanes.deployment(id);
            assertThat(waiting.getString("state")).isEqualTo("AWAITING_APPROVAL");
            assertThat(waiting.getBoolean("approval.required")).isTrue();
            assertThat(waiting.getString("approval.rule")).contains(lanes.prefix + "lane").contains("admin");
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(409)
                    .body("detail", containsString("cannot start until it is approved"));

            Api.approver().body("{\"comment\": \"checked against change ticket CHG-7\"}")
                    .post("/qawk/v1/systemdeployments/" + id + "/approve").then().statusCode(200)
                    .body("state", equalTo("DRAFT")).body("approval.approvedBy", equalTo("approver"))
                    .body("approval.comment", equalTo("checked against change ticket CHG-7"));

            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(200);
            Lanes.awaitState(id, "FINISHED", WITHIN);
            assertThat(lanes.installedSetId(lanes.id("lane-01", "lane"))).isEqualTo(lanes.set("app:2"));

            JsonPath done = Lanes.deployment(id);
            assertThat(done.getString("approval.approvedBy")).isEqualTo("approver");
            assertThat(done.getString("approval.approvedAt")).isNotNull();
            assertThat(events(id)).anySatisfy(e -> {
                assertThat(e.get("type")).isEqualTo("APPROVED");
                assertThat(e.get("actor")).isEqualTo("approver");
                assertThat(e.get("comment")).isEqualTo("checked against change ticket CHG-7");
            });
            // the run's own timeline says who approved it, too
            int runId = Lanes.runs(id).getInt("[0].id");
            assertThat(Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/runs/" + runId + "/events").then()
                    .statusCode(200).extract().jsonPath().getList("message", String.class))
                    .anySatisfy(m -> assertThat(m).contains("approved by approver").contains("CHG-7"));
            // and the evidence record names the approval (issue 42: who approved a release)
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                List<Map<String, Object>> approvals = Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/evidence")
                        .then().statusCode(200).extract().jsonPath().getList("approvals");
                assertThat(approvals).anySatisfy(a -> {
                    assertThat(a.get("kind")).isEqualTo("APPROVED");
                    assertThat(a.get("actor")).isEqualTo("approver");
                    assertThat(a.get("comment")).isEqualTo("checked against change ticket CHG-7");
                });
            });
            List<Map<String, Object>> audit = Api.viewer().get("/qawk/v1/audit?actor=approver").then().statusCode(200)
                    .extract().jsonPath().getList("content");
            assertThat(audit).anySatisfy(e -> {
                assertThat(e.get("action")).isEqualTo("approve");
                assertThat(e.get("target")).isEqualTo("systemdeployments/" + id);
                assertThat(String.valueOf(e.get("detail"))).contains("CHG-7");
            });
        }
    }

    @Test
    void theCreatorsOwnApprovalIsRefused() {
        try (Lanes lanes = new Lanes("appr-self-").withSetsAndType()) {
            requireApproval(lanes);
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            int manifest = lanes.manifest("2.0", "2");
            int id = create(Api.lead(), lanes, manifest);

            Api.lead().body("{\"comment\": \"looks fine to me\"}").post("/qawk/v1/systemdeployments/" + id + "/approve")
                    .then().statusCode(403).contentType("application/problem+json")
                    .body("detail", containsString("four eyes")).body("detail", containsString("lead"));
            // a viewer is no approver; an admin who is no approver neither
            Api.viewer().body("{\"comment\": \"x\"}").post("/qawk/v1/systemdeployments/" + id + "/approve")
                    .then().statusCode(403);
            Api.admin().body("{\"comment\": \"x\"}").post("/qawk/v1/systemdeployments/" + id + "/approve")
                    .then().statusCode(403);
            JsonPath still = Lanes.deployment(id);
            assertThat(still.getString("state")).isEqualTo("AWAITING_APPROVAL");
            assertThat(still.getString("approval.approvedBy")).isNull();
            assertThat(events(id)).noneSatisfy(e -> assertThat(e.get("type")).isEqualTo("APPROVED"));
        }
    }

    @Test
    void anEditAfterApprovalTakesTheApprovalBack() {
        try (Lanes lanes = new Lanes("appr-edit-").withSetsAndType()) {
            requireApproval(lanes);
            lanes.system("lane-01", "c01").system("lane-02", "c01");
            lanes.discovered(2);
            int manifest = lanes.manifest("2.0", "2");
            int id = create(Api.admin(), lanes, manifest);
            Api.approver().body("{\"comment\": \"ok for lane-01\"}").post("/qawk/v1/systemdeployments/" + id + "/approve")
                    .then().statusCode(200).body("state", equalTo("DRAFT"));

            // the scope grows after the approval: what was approved is no longer what would run
            Api.admin().body("{\"name\": \"" + lanes.prefix + "d\", \"manifestId\": " + manifest
                            + ", \"systems\": [\"lane-01\", \"lane-02\"], \"maxParallel\": 2}")
                    .put("/qawk/v1/systemdeployments/" + id).then().statusCode(200)
                    .body("state", equalTo("AWAITING_APPROVAL")).body("approval.approvedBy", equalTo(null))
                    .body("systems.size()", equalTo(2)).body("maxParallel", equalTo(2));
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(409);
            assertThat(events(id)).extracting(e -> e.get("type")).containsSubsequence("APPROVED", "APPROVAL_WITHDRAWN");

            // bad input changes nothing
            Api.admin().body("{\"name\": \"" + lanes.prefix + "d\", \"manifestId\": " + manifest + ", \"maxParallel\": 0}")
                    .put("/qawk/v1/systemdeployments/" + id).then().statusCode(400)
                    .contentType("application/problem+json").body("detail", containsString("maxParallel"));
            assertThat(Lanes.deployment(id).getInt("maxParallel")).isEqualTo(2);

            Api.approver().body("{\"comment\": \"both lanes\"}").post("/qawk/v1/systemdeployments/" + id + "/approve")
                    .then().statusCode(200);
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(200);
            Lanes.awaitState(id, "FINISHED", WITHIN);
            // once started, a deployment can no longer be edited
            Api.admin().body("{\"name\": \"" + lanes.prefix + "d\", \"manifestId\": " + manifest + "}")
                    .put("/qawk/v1/systemdeployments/" + id).then().statusCode(409);
        }
    }

    @Test
    void aRejectionEndsTheDeployment() {
        try (Lanes lanes = new Lanes("appr-rej-").withSetsAndType()) {
            requireApproval(lanes);
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            int manifest = lanes.manifest("2.0", "2");
            int id = create(Api.admin(), lanes, manifest);

            Api.approver().body("{\"comment\": \"not during the freeze\"}")
                    .post("/qawk/v1/systemdeployments/" + id + "/reject").then().statusCode(200)
                    .body("state", equalTo("REJECTED")).body("approval.rejectedBy", equalTo("approver"))
                    .body("approval.comment", equalTo("not during the freeze"));
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(409);
            Api.approver().body("{}").post("/qawk/v1/systemdeployments/" + id + "/approve").then().statusCode(409);
            JsonPath rejected = Lanes.deployment(id);
            assertThat(rejected.getString("endedAt")).isNotNull();
            assertThat(rejected.getInt("counts.systems")).isZero();
            assertThat(events(id)).anySatisfy(e -> {
                assertThat(e.get("type")).isEqualTo("REJECTED");
                assertThat(e.get("comment")).isEqualTo("not during the freeze");
            });
        }
    }

    @Test
    void aChannelThatRequiresApprovalHoldsItsReleasesDeploymentUntilApproved() {
        try (Lanes lanes = new Lanes("appr-chan-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "prod");
            int prod = lanes.channel("prod", "\"approval\": \"required\"");
            assertThat(channelView(prod).getString("approval")).isEqualTo("required");
            lanes.discovered(1);
            int manifest = lanes.manifest("2.0", "2");
            Api.admin().body("{\"manifestId\": " + manifest + "}").put("/qawk/v1/fleets/" + prod).then().statusCode(200);
            int id = channelView(prod).getInt("release.deploymentId");
            assertThat(Lanes.deployment(id).getString("state")).isEqualTo("AWAITING_APPROVAL");
            assertThat(Lanes.deployment(id).getString("approval.rule")).contains(lanes.prefix + "prod");

            // the release engine passes over the waiting deployment without breaking or starting it
            Lanes.sync();
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                    .until(() -> "AWAITING_APPROVAL".equals(Lanes.deployment(id).getString("state")));
            assertThat(lanes.installedSetId(lanes.id("lane-01", "lane"))).isNotEqualTo(lanes.set("app:2"));

            Api.approver().body("{\"comment\": \"go\"}").post("/qawk/v1/systemdeployments/" + id + "/approve")
                    .then().statusCode(200);
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500))
                    .until(() -> "COMPLETE".equals(channelView(prod).getString("release.state")));
            assertThat(lanes.installedSetId(lanes.id("lane-01", "lane"))).isEqualTo(lanes.set("app:2"));
        }
    }

    /**
     * Two approvers decide the same deployment at the same moment, one approving and one rejecting, five times over:
     * each time exactly one decision is taken (200) and the other is refused (409 naming the state the first left),
     * the deployment is in the state of the one taken, and its events hold that one decision only.
     */
    @Test
    void twoApproversDecidingAtTheSameMomentLeaveExactlyOneDecision() throws Exception {
        try (Lanes lanes = new Lanes("appr-race-").withSetsAndType()) {
            requireApproval(lanes);
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            int manifest = lanes.manifest("2.0", "2");
            ExecutorService both = Executors.newFixedThreadPool(2);
            try {
                for (int round = 0; round < 5; round++) {
                    int id = create(Api.admin(), lanes, manifest);
                    CountDownLatch go = new CountDownLatch(1);
                    Future<io.restassured.response.Response> approve = both.submit(() -> {
                        go.await();
                        return Api.approver().body("{\"comment\": \"ok\"}")
                                .post("/qawk/v1/systemdeployments/" + id + "/approve");
                    });
                    Future<io.restassured.response.Response> reject = both.submit(() -> {
                        go.await();
                        return Api.lead().body("{\"comment\": \"not today\"}")
                                .post("/qawk/v1/systemdeployments/" + id + "/reject");
                    });
                    go.countDown();
                    int approved = approve.get(60, TimeUnit.SECONDS).statusCode();
                    int rejected = reject.get(60, TimeUnit.SECONDS).statusCode();
                    assertThat(List.of(approved, rejected)).as("round %d", round).containsExactlyInAnyOrder(200, 409);

                    String state = Lanes.deployment(id).getString("state");
                    List<Object> decisions = events(id).stream().map(e -> e.get("type"))
                            .filter(t -> "APPROVED".equals(t) || "REJECTED".equals(t)).toList();
                    if (approved == 200) {
                        assertThat(state).isEqualTo("DRAFT");
                        assertThat(decisions).containsExactly("APPROVED");
                        assertThat(reject.get().jsonPath().getString("detail")).contains("is DRAFT");
                    } else {
                        assertThat(state).isEqualTo("REJECTED");
                        assertThat(decisions).containsExactly("REJECTED");
                        assertThat(approve.get().jsonPath().getString("detail")).contains("is REJECTED");
                    }
                }
            } finally {
                both.shutdownNow();
            }
        }
    }
}
