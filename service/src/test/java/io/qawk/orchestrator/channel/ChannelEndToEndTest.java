package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.LaneFleet;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.qawk.orchestrator.testsupport.LaneFleet.channelView;
import static io.qawk.orchestrator.testsupport.LaneFleet.runs;
import static io.qawk.orchestrator.testsupport.LaneFleet.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** Channels against the real hawkBit: releases with both halves, promotion, halts, and following the channel. */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class ChannelEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(150);

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
        try (LaneFleet fleet = new LaneFleet("fl-both-").withSetsAndType()) {
            fleet.system("lane-01", "c01", "dev").system("lane-02", "c01", "dev")
                    .standalone("kiosk-1", "dev").standalone("kiosk-2", "dev");
            // kiosk-2 stays under way until the systems' deployment has finished and we let it go
            fleet.devices.setBehaviour(fleet.prefix + "kiosk-2", Behaviour.hold());
            int dev = fleet.channel("dev", "\"orchestrator\": {\"maxParallel\": 2, \"maxFailed\": 0}");
            fleet.discovered(2);
            JsonPath systems = Api.viewer().get("/qawk/v1/systemtypes/" + fleet.typeId + "/systems").then()
                    .extract().jsonPath();
            assertThat(systems.getList("content.fleet")).containsOnly(fleet.prefix + "dev");
            long solo = fleet.hawkbit.createDistributionSet(fleet.prefix + "solo", "2");
            int manifest = fleet.manifest("2.0", "2");

            release(dev, "{\"distributionSetId\": " + solo + ", \"manifestId\": " + manifest + "}");

            int deployment = channelView(dev).getInt("release.deploymentId");
            assertThat(LaneFleet.deployment(deployment).getInt("fleetId")).as("the API's word for the channel").isEqualTo(dev);
            LaneFleet.awaitState(deployment, "FINISHED", WITHIN);
            JsonPath whileDevicePending = channelView(dev);
            assertThat(whileDevicePending.getString("release.state")).isEqualTo("RUNNING");
            assertThat(whileDevicePending.getString("release.systemsSummary")).isEqualTo("2 of 2 systems updated, 0 rolled back");
            assertThat(whileDevicePending.getString("gate.reason")).contains("promotes to no other channel");

            fleet.devices.setBehaviour(fleet.prefix + "kiosk-2", Behaviour.succeed());
            JsonPath done = awaitRelease(dev, "COMPLETE");
            assertThat(done.getString("release.devicesSummary"))
                    .isEqualTo("2 of 2 devices on " + fleet.prefix + "solo:2, 0 failed");
            assertThat(fleet.installedSetId(fleet.prefix + "kiosk-1")).isEqualTo(solo);
            assertThat(fleet.installedSetId(fleet.id("lane-01", "lane"))).isEqualTo(fleet.set("app:2"));
            assertThat(fleet.hawkbit.actions(fleet.id("lane-01", "lane"))).hasSize(1);
        }
    }

    @Test
    void promotionCarriesTheManifestUnlessToldNotToAndTheGateWaitsForTheSystems() {
        try (LaneFleet fleet = new LaneFleet("fl-promo-").withSetsAndType()) {
            fleet.system("lane-01", "c01", "dev").system("lane-02", "c01", "beta").system("lane-03", "c01", "prod");
            fleet.behaviour("lane-01", "lane", Behaviour.hold()); // dev's release is under way until we let it go
            int prod = fleet.channel("prod", "");
            int beta = fleet.channel("beta", "\"promotesTo\": " + prod);
            int dev = fleet.channel("dev", "\"promotesTo\": " + beta);
            fleet.discovered(3);
            int manifest = fleet.manifest("2.0", "2");
            long solo = fleet.hawkbit.createDistributionSet(fleet.prefix + "solo", "2");
            release(dev, "{\"distributionSetId\": " + solo + ", \"manifestId\": " + manifest + "}");

            Api.admin().body("{}").post("/qawk/v1/fleets/" + dev + "/promote").then().statusCode(409)
                    .contentType("application/problem+json")
                    .body("detail", containsString("has not reached every device and system"));
            fleet.behaviour("lane-01", "lane", Behaviour.succeed());
            awaitRelease(dev, "COMPLETE");

            Api.admin().body("{}").post("/qawk/v1/fleets/" + dev + "/promote").then().statusCode(200)
                    .body("name", equalTo(fleet.prefix + "beta"))
                    .body("release.manifestId", equalTo(manifest));
            JsonPath betaDone = awaitRelease(beta, "COMPLETE");
            assertThat(betaDone.getString("release.systemsSummary")).isEqualTo("1 of 1 systems updated, 0 rolled back");
            assertThat(fleet.installedSetId(fleet.id("lane-02", "lane"))).isEqualTo(fleet.set("app:2"));

            Api.admin().body("{\"orchestrator\": false}").post("/qawk/v1/fleets/" + beta + "/promote").then()
                    .statusCode(200).body("name", equalTo(fleet.prefix + "prod"))
                    .body("release.distributionSetId", equalTo((int) solo))
                    .body("release.manifestId", equalTo(null))
                    .body("release.deploymentId", equalTo(null));
            awaitRelease(prod, "COMPLETE");
            assertThat(fleet.hawkbit.actions(fleet.id("lane-03", "lane"))).isEmpty();
        }
    }

    @Test
    void tooManyFailingSystemsHaltTheReleaseUntilAPersonResumesIt() {
        try (LaneFleet fleet = new LaneFleet("fl-halt-").withSetsAndType()) {
            fleet.system("lane-01", "c01", "prod").system("lane-02", "c01", "prod");
            fleet.behaviour("lane-01", "lane", Behaviour.failFor(fleet.set("app:2")));
            int next = fleet.channel("next", "");
            int prod = fleet.channel("prod", "\"promotesTo\": " + next
                    + ", \"orchestrator\": {\"maxParallel\": 1, \"maxFailed\": 0}");
            fleet.discovered(2);
            release(prod, "{\"manifestId\": " + fleet.manifest("2.0", "2") + "}");

            JsonPath halted = awaitRelease(prod, "HALTED");
            assertThat(halted.getString("release.haltReason")).contains("1 system(s) rolled back");
            assertThat(halted.getBoolean("gate.canPromote")).isFalse();
            Api.admin().body("{}").post("/qawk/v1/fleets/" + prod + "/promote").then().statusCode(409)
                    .body("detail", containsString("halted"));
            Api.admin().post("/qawk/v1/fleets/" + prod + "/resume").then().statusCode(409)
                    .body("detail", containsString("take systems again"));
            assertThat(fleet.hawkbit.actions(fleet.id("lane-02", "term-a"))).isEmpty();

            int deployment = halted.getInt("release.deploymentId");
            int runId = runs(deployment).getInt("find { it.system == 'lane-01' }.id");
            fleet.behaviour("lane-01", "lane", Behaviour.succeed());
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
        try (LaneFleet fleet = new LaneFleet("fl-move-").withSetsAndType()) {
            fleet.system("lane-01", "c01", "prod").system("lane-02", "c01", "prod")
                    .system("lane-03", "c02", "elsewhere");
            fleet.behaviour("lane-01", "lane", Behaviour.hold()); // lane-02 waits for its slot until we let lane-01 go
            int prod = fleet.channel("prod", "\"orchestrator\": {\"maxParallel\": 1}");
            fleet.discovered(3);
            release(prod, "{\"manifestId\": " + fleet.manifest("2.0", "2") + "}");
            int deployment = channelView(prod).getInt("release.deploymentId");
            assertThat(runs(deployment).getList("system")).containsExactly("lane-01", "lane-02");

            // lane-02 leaves the channel before the orchestrator reaches it: given up, not updated
            fleet.move("lane-02", "elsewhere");
            sync();
            await().atMost(WITHIN).until(() -> "GIVEN_UP".equals(runs(deployment).getString("find { it.system == 'lane-02' }.state")));
            fleet.behaviour("lane-01", "lane", Behaviour.succeed());
            LaneFleet.awaitState(deployment, "FINISHED", WITHIN);
            awaitRelease(prod, "COMPLETE");
            assertThat(fleet.hawkbit.actions(fleet.id("lane-02", "lane"))).isEmpty();

            // lane-03 moves in half-way: mixed, left alone
            fleet.move("lane-03", "prod", "lane", "term-a");
            sync();
            JsonPath plan = Api.viewer().get("/qawk/v1/systemtypes/" + fleet.typeId + "/systems?group=c02").then()
                    .extract().jsonPath();
            assertThat(plan.getBoolean("content[0].mixed")).isTrue();
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                    .until(() -> runs(deployment).getList("system").size() == 2);

            // then all of it: taken on the next pass; the finished deployment and the release reopen, then finish
            fleet.move("lane-03", "prod", "term-b", "display");
            sync();
            await().atMost(WITHIN).until(() -> runs(deployment).getList("system").contains("lane-03"));
            JsonPath done = awaitRelease(prod, "COMPLETE");
            assertThat(done.getString("release.systemsSummary")).isEqualTo("2 of 2 systems updated, 0 rolled back, 1 given up");
            assertThat(fleet.installedSetId(fleet.id("lane-03", "lane"))).isEqualTo(fleet.set("app:2"));
        }
    }

    @Test
    void aPausedOrAbortedDeploymentStaysAsItIsWhileDevicesMove() {
        try (LaneFleet fleet = new LaneFleet("fl-stay-").withSetsAndType()) {
            fleet.system("lane-01", "c01", "prod").system("lane-02", "c01", "prod").system("lane-03", "c01", "other");
            int prod = fleet.channel("prod", "\"orchestrator\": {\"maxParallel\": 1}");
            fleet.discovered(3);
            release(prod, "{\"manifestId\": " + fleet.manifest("2.0", "2") + "}");
            int deployment = channelView(prod).getInt("release.deploymentId");
            Api.admin().post("/qawk/v1/systemdeployments/" + deployment + "/pause").then().statusCode(200);

            fleet.move("lane-03", "prod");
            sync();
            await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6)).until(() ->
                    runs(deployment).getList("system").size() == 2
                            && "PAUSED".equals(LaneFleet.deployment(deployment).getString("state")));

            Api.admin().post("/qawk/v1/systemdeployments/" + deployment + "/abort").then().statusCode(200);
            LaneFleet.awaitState(deployment, "ABORTED", WITHIN);
            sync();
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() ->
                    runs(deployment).getList("system").size() == 2
                            && "ABORTED".equals(LaneFleet.deployment(deployment).getString("state")));
            assertThat(fleet.hawkbit.actions(fleet.id("lane-03", "lane"))).isEmpty();
        }
    }

    /**
     * A channel's deployment may be empty: it says it waits for systems to join, takes one that arrives, and one that
     * ended with no system ever in scope says so, never like one that updated systems (issue 36).
     */
    @Test
    void aChannelsEmptyDeploymentWaitsForSystemsToJoinAndTakesThem() {
        try (LaneFleet fleet = new LaneFleet("fl-empty-").withSetsAndType()) {
            fleet.system("lane-01", "c01", "elsewhere");
            int prod = fleet.channel("prod", "");
            fleet.discovered(1);
            int manifest = fleet.manifest("2.0", "2");
            release(prod, "{\"manifestId\": " + manifest + "}");
            int first = channelView(prod).getInt("release.deploymentId");
            assertThat(LaneFleet.deployment(first).getString("summary")).isEqualTo("waiting for systems to join");

            // superseded before any system came: the channel follows it no more; it ended with nothing in scope
            release(prod, "{\"manifestId\": " + manifest + "}");
            int second = channelView(prod).getInt("release.deploymentId");
            JsonPath old = LaneFleet.deployment(first);
            assertThat(old.getString("state")).isEqualTo("FINISHED");
            assertThat(old.getString("summary")).isEqualTo("finished: no system was in scope");
            assertThat(LaneFleet.deployment(second).getString("summary")).isEqualTo("waiting for systems to join");

            // a system arrives: the empty deployment takes it
            fleet.move("lane-01", "prod");
            sync();
            await().atMost(WITHIN).until(() -> runs(second).getList("system").contains("lane-01"));
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500)).until(() ->
                    "1 of 1 updated, 0 rolled back".equals(LaneFleet.deployment(second).getString("summary")));
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500)).until(() ->
                    "COMPLETE".equals(channelView(prod).getString("release.state"))
                            && "1 of 1 systems updated, 0 rolled back".equals(channelView(prod).getString("release.systemsSummary")));
            assertThat(fleet.installedSetId(fleet.id("lane-01", "lane"))).isEqualTo(fleet.set("app:2"));
        }
    }
}
