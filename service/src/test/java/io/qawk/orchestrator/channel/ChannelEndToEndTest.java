package io.qawk.orchestrator.channel;

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
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** Channels against the real hawkBit: releases with both halves, promotion, halts, and following the channel. */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class ChannelEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(150);
    /**
     * How long a wait for something that must stay as it is (for its {@code during}) may take in all: each look asks
     * the API twice, and on a loaded machine one look took longer than the 2 s these waits used to leave (a whole
     * run, 2026-12-06). What must hold, and for how long, is unchanged.
     */
    static final Duration STEADY_WITHIN = Duration.ofSeconds(20);

    private static JsonPath awaitRelease(int channelId, String state) {
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(500))
                .until(() -> state.equals(channelView(channelId).getString("release.state")));
        return channelView(channelId);
    }

    /**
     * Changes the channel as a client would: a 409 (the release engine changed the release at the same moment, e.g.
     * completing an empty one) is read again and retried, as its problem says; anything else but 200 fails.
     */
    private static void release(int channelId, String body) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            int status = Api.admin().body(body).put("/qawk/v1/fleets/" + channelId).then().extract().statusCode();
            assertThat(status).as("PUT /qawk/v1/fleets/" + channelId).isIn(200, 409);
            return status == 200;
        });
    }

    @Test
    void oneReleaseUpdatesStandaloneDevicesAndSystemsAndCompletesOnlyWhenBothHalvesDid() {
        try (Lanes lanes = new Lanes("fl-both-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "dev").system("lane-02", "c01", "dev")
                    .standalone("kiosk-1", "dev").standalone("kiosk-2", "dev");
            // kiosk-2 stays under way until the systems' deployment has finished and we let it go
            lanes.devices.setBehaviour(lanes.prefix + "kiosk-2", Behaviour.hold());
            int dev = lanes.channel("dev", "\"orchestrator\": {\"maxParallel\": 2, \"maxFailed\": 0}");
            lanes.discovered(2);
            JsonPath systems = Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems").then()
                    .extract().jsonPath();
            assertThat(systems.getList("content.fleet")).containsOnly(lanes.prefix + "dev");
            long solo = lanes.hawkbit.createDistributionSet(lanes.prefix + "solo", "2");
            int manifest = lanes.manifest("2.0", "2");

            release(dev, "{\"distributionSetId\": " + solo + ", \"manifestId\": " + manifest + "}");

            int deployment = channelView(dev).getInt("release.deploymentId");
            assertThat(Lanes.deployment(deployment).getInt("fleetId")).as("the API's word for the channel").isEqualTo(dev);
            Lanes.awaitState(deployment, "FINISHED", WITHIN);
            JsonPath whileDevicePending = channelView(dev);
            assertThat(whileDevicePending.getString("release.state")).isEqualTo("RUNNING");
            assertThat(whileDevicePending.getString("release.systemsSummary")).isEqualTo("2 of 2 systems updated, 0 rolled back");
            assertThat(whileDevicePending.getString("gate.reason")).contains("promotes to no other channel");

            lanes.devices.setBehaviour(lanes.prefix + "kiosk-2", Behaviour.succeed());
            JsonPath done = awaitRelease(dev, "COMPLETE");
            assertThat(done.getString("release.devicesSummary"))
                    .isEqualTo("2 of 2 devices on " + lanes.prefix + "solo:2, 0 failed");
            assertThat(lanes.installedSetId(lanes.prefix + "kiosk-1")).isEqualTo(solo);
            assertThat(lanes.installedSetId(lanes.id("lane-01", "lane"))).isEqualTo(lanes.set("app:2"));
            assertThat(lanes.hawkbit.actions(lanes.id("lane-01", "lane"))).hasSize(1);
        }
    }

    @Test
    void promotionCarriesTheManifestUnlessToldNotToAndTheGateWaitsForTheSystems() {
        try (Lanes lanes = new Lanes("fl-promo-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "dev").system("lane-02", "c01", "beta").system("lane-03", "c01", "prod");
            lanes.behaviour("lane-01", "lane", Behaviour.hold()); // dev's release is under way until we let it go
            int prod = lanes.channel("prod", "");
            int beta = lanes.channel("beta", "\"promotesTo\": " + prod);
            int dev = lanes.channel("dev", "\"promotesTo\": " + beta);
            lanes.discovered(3);
            int manifest = lanes.manifest("2.0", "2");
            long solo = lanes.hawkbit.createDistributionSet(lanes.prefix + "solo", "2");
            release(dev, "{\"distributionSetId\": " + solo + ", \"manifestId\": " + manifest + "}");

            Api.admin().body("{}").post("/qawk/v1/fleets/" + dev + "/promote").then().statusCode(409)
                    .contentType("application/problem+json")
                    .body("detail", containsString("has not reached every device and system"));
            lanes.behaviour("lane-01", "lane", Behaviour.succeed());
            awaitRelease(dev, "COMPLETE");

            Api.admin().body("{}").post("/qawk/v1/fleets/" + dev + "/promote").then().statusCode(200)
                    .body("name", equalTo(lanes.prefix + "beta"))
                    .body("release.manifestId", equalTo(manifest));
            JsonPath betaDone = awaitRelease(beta, "COMPLETE");
            assertThat(betaDone.getString("release.systemsSummary")).isEqualTo("1 of 1 systems updated, 0 rolled back");
            assertThat(lanes.installedSetId(lanes.id("lane-02", "lane"))).isEqualTo(lanes.set("app:2"));

            Api.admin().body("{\"orchestrator\": false}").post("/qawk/v1/fleets/" + beta + "/promote").then()
                    .statusCode(200).body("name", equalTo(lanes.prefix + "prod"))
                    .body("release.distributionSetId", equalTo((int) solo))
                    .body("release.manifestId", equalTo(null))
                    .body("release.deploymentId", equalTo(null));
            awaitRelease(prod, "COMPLETE");
            assertThat(lanes.hawkbit.actions(lanes.id("lane-03", "lane"))).isEmpty();
        }
    }

    @Test
    void tooManyFailingSystemsHaltTheReleaseUntilAPersonResumesIt() {
        try (Lanes lanes = new Lanes("fl-halt-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "prod").system("lane-02", "c01", "prod");
            lanes.behaviour("lane-01", "lane", Behaviour.failFor(lanes.set("app:2")));
            int next = lanes.channel("next", "");
            int prod = lanes.channel("prod", "\"promotesTo\": " + next
                    + ", \"orchestrator\": {\"maxParallel\": 1, \"maxFailed\": 0}");
            lanes.discovered(2);
            release(prod, "{\"manifestId\": " + lanes.manifest("2.0", "2") + "}");

            JsonPath halted = awaitRelease(prod, "HALTED");
            assertThat(halted.getString("release.haltReason")).contains("1 system(s) rolled back");
            assertThat(halted.getBoolean("gate.canPromote")).isFalse();
            Api.admin().body("{}").post("/qawk/v1/fleets/" + prod + "/promote").then().statusCode(409)
                    .body("detail", containsString("halted"));
            Api.admin().post("/qawk/v1/fleets/" + prod + "/resume").then().statusCode(409)
                    .body("detail", containsString("take systems again"));
            assertThat(lanes.hawkbit.actions(lanes.id("lane-02", "term-a"))).isEmpty();

            int deployment = halted.getInt("release.deploymentId");
            int runId = runs(deployment).getInt("find { it.system == 'lane-01' }.id");
            lanes.behaviour("lane-01", "lane", Behaviour.succeed());
            Api.admin().body("{\"reason\": \"new PSU\"}")
                    .post("/qawk/v1/systemdeployments/" + deployment + "/runs/" + runId + "/retry").then().statusCode(200);
            await().atMost(WITHIN).until(() -> "SUCCEEDED".equals(runs(deployment).getString("find { it.system == 'lane-01' }.state")));
            // taking one again is a decision about that system; the halted release still starts nothing new
            assertThat(channelView(prod).getString("release.state")).isEqualTo("HALTED");
            assertThat(runs(deployment).getString("find { it.system == 'lane-02' }.state")).isEqualTo("PENDING");

            Api.admin().post("/qawk/v1/fleets/" + prod + "/resume").then().statusCode(200);
            JsonPath complete = awaitRelease(prod, "COMPLETE");
            assertThat(complete.getString("release.systemsSummary")).isEqualTo("2 of 2 systems updated, 0 rolled back");
        }
    }

    @Test
    void theOrchestratorFollowsTheChannelAsDevicesMove() {
        try (Lanes lanes = new Lanes("fl-move-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "prod").system("lane-02", "c01", "prod")
                    .system("lane-03", "c02", "elsewhere");
            lanes.behaviour("lane-01", "lane", Behaviour.hold()); // lane-02 waits for its slot until we let lane-01 go
            int prod = lanes.channel("prod", "\"orchestrator\": {\"maxParallel\": 1}");
            lanes.discovered(3);
            release(prod, "{\"manifestId\": " + lanes.manifest("2.0", "2") + "}");
            int deployment = channelView(prod).getInt("release.deploymentId");
            assertThat(runs(deployment).getList("system")).containsExactly("lane-01", "lane-02");

            // lane-02 leaves the channel before the orchestrator reaches it: given up, not updated
            lanes.move("lane-02", "elsewhere");
            sync();
            await().atMost(WITHIN).until(() -> "GIVEN_UP".equals(runs(deployment).getString("find { it.system == 'lane-02' }.state")));
            lanes.behaviour("lane-01", "lane", Behaviour.succeed());
            Lanes.awaitState(deployment, "FINISHED", WITHIN);
            awaitRelease(prod, "COMPLETE");
            assertThat(lanes.hawkbit.actions(lanes.id("lane-02", "lane"))).isEmpty();

            // lane-03 moves in half-way: mixed, left alone
            lanes.move("lane-03", "prod", "lane", "term-a");
            sync();
            JsonPath plan = Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems?group=c02").then()
                    .extract().jsonPath();
            assertThat(plan.getBoolean("content[0].mixed")).isTrue();
            await().during(Duration.ofSeconds(3)).atMost(STEADY_WITHIN)
                    .until(() -> runs(deployment).getList("system").size() == 2);

            // then all of it: taken on the next pass; the finished deployment and the release reopen, then finish
            lanes.move("lane-03", "prod", "term-b", "display");
            sync();
            await().atMost(WITHIN).until(() -> runs(deployment).getList("system").contains("lane-03"));
            JsonPath done = awaitRelease(prod, "COMPLETE");
            assertThat(done.getString("release.systemsSummary")).isEqualTo("2 of 2 systems updated, 0 rolled back, 1 given up");
            assertThat(lanes.installedSetId(lanes.id("lane-03", "lane"))).isEqualTo(lanes.set("app:2"));
        }
    }

    @Test
    void aPausedOrAbortedDeploymentStaysAsItIsWhileDevicesMove() {
        try (Lanes lanes = new Lanes("fl-stay-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "prod").system("lane-02", "c01", "prod").system("lane-03", "c01", "other");
            int prod = lanes.channel("prod", "\"orchestrator\": {\"maxParallel\": 1}");
            lanes.discovered(3);
            release(prod, "{\"manifestId\": " + lanes.manifest("2.0", "2") + "}");
            int deployment = channelView(prod).getInt("release.deploymentId");
            Api.admin().post("/qawk/v1/systemdeployments/" + deployment + "/pause").then().statusCode(200);

            lanes.move("lane-03", "prod");
            sync();
            await().during(Duration.ofSeconds(4)).atMost(STEADY_WITHIN).until(() ->
                    runs(deployment).getList("system").size() == 2
                            && "PAUSED".equals(Lanes.deployment(deployment).getString("state")));

            Api.admin().post("/qawk/v1/systemdeployments/" + deployment + "/abort").then().statusCode(200);
            Lanes.awaitState(deployment, "ABORTED", WITHIN);
            sync();
            await().during(Duration.ofSeconds(3)).atMost(STEADY_WITHIN).until(() ->
                    runs(deployment).getList("system").size() == 2
                            && "ABORTED".equals(Lanes.deployment(deployment).getString("state")));
            assertThat(lanes.hawkbit.actions(lanes.id("lane-03", "lane"))).isEmpty();
        }
    }

    /**
     * A channel's deployment may be empty: it says so in the words of its phase (finished, never "waiting" beside
     * "finished": issue 56), takes one that arrives, and one that ended with no system ever in scope says so, never like
     * one that updated systems (issue 36).
     */
    @Test
    void aChannelsEmptyDeploymentSaysSoAndTakesSystemsThatJoin() {
        try (Lanes lanes = new Lanes("fl-empty-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "elsewhere");
            int prod = lanes.channel("prod", "");
            lanes.discovered(1);
            int manifest = lanes.manifest("2.0", "2");
            release(prod, "{\"manifestId\": " + manifest + "}");
            int first = channelView(prod).getInt("release.deploymentId");
            String following = "finished: no system in the channel's scope yet; "
                    + "it takes systems as they join";
            JsonPath empty = Lanes.deployment(first);
            assertThat(empty.getString("state")).isEqualTo("FINISHED");
            assertThat(empty.getString("summary")).isEqualTo(following);

            // superseded before any system came: the channel follows it no more; it ended with nothing in scope
            release(prod, "{\"manifestId\": " + manifest + "}");
            int second = channelView(prod).getInt("release.deploymentId");
            JsonPath old = Lanes.deployment(first);
            assertThat(old.getString("state")).isEqualTo("FINISHED");
            assertThat(old.getString("summary")).isEqualTo("finished: no system was in scope");
            assertThat(Lanes.deployment(second).getString("summary")).isEqualTo(following);

            // a system arrives: the empty deployment takes it
            lanes.move("lane-01", "prod");
            sync();
            await().atMost(WITHIN).until(() -> runs(second).getList("system").contains("lane-01"));
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500)).until(() ->
                    "1 of 1 updated, 0 rolled back".equals(Lanes.deployment(second).getString("summary")));
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500)).until(() ->
                    "COMPLETE".equals(channelView(prod).getString("release.state"))
                            && "1 of 1 systems updated, 0 rolled back".equals(channelView(prod).getString("release.systemsSummary")));
            assertThat(lanes.installedSetId(lanes.id("lane-01", "lane"))).isEqualTo(lanes.set("app:2"));
        }
    }
}
