package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.ActionRecord;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static io.qawk.orchestrator.testsupport.Lanes.channelView;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static io.qawk.orchestrator.testsupport.Lanes.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One system, one driver, against the real hawkBit with simulated lanes: a system is driven by one deployment at a
 * time, is started only while whole in its channel, not while its release is halted, and a person's take again
 * always takes.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class OneDriverEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(150);
    static final List<String> ROLES = List.of("lane", "term-a", "term-b", "display");

    private static String run(int deployment, String system, String field) {
        return runs(deployment).getString("find { it.system == '" + system + "' }." + field);
    }

    private static void awaitRun(int deployment, String system, String state) {
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(300)).until(() -> state.equals(run(deployment, system, "state")));
    }

    /** Stays in {@code state} for several engine passes (the test profile passes every second). */
    private static void staysFor(int deployment, String system, String state, Duration during) {
        await().during(during).atMost(during.plusSeconds(10)).pollInterval(Duration.ofMillis(500))
                .until(() -> state.equals(run(deployment, system, "state")));
    }

    private static void release(int channelId, String body) {
        Api.admin().body(body).put("/qawk/v1/fleets/" + channelId).then().statusCode(200);
    }

    /**
     * Channels prod and beta; lane-01 (held until {@link #letGo}) and lane-02 (in {@code centre}) in prod, released
     * with maxParallel 1: returns the deployment once lane-01 is under way and lane-02 waits for its slot.
     */
    private static int releaseToProdWhileASecondSystemWaits(Lanes lanes, String centre) {
        lanes.system("lane-01", "c01", "prod").system("lane-02", centre, "prod");
        int prod = lanes.channel("prod", "\"orchestrator\": {\"maxParallel\": 1, \"maxFailed\": 0}");
        lanes.channel("beta", "");
        lanes.discovered(2);
        lanes.behaviour("lane-01", "lane", Behaviour.hold());
        release(prod, "{\"manifestId\": " + lanes.manifest("2.0", "2") + "}");
        int d = channelView(prod).getInt("release.deploymentId");
        awaitRun(d, "lane-01", "RUNNING");
        return d;
    }

    /** A held device finishes now: what had to happen while it was under way has been seen. */
    private static void letGo(Lanes lanes, String system, String role) {
        lanes.behaviour(system, role, Behaviour.succeed());
    }

    private static void assertNoCancel(Lanes lanes, String system) {
        for (String role : ROLES) {
            assertThat(lanes.devices.history(lanes.id(system, role))).as(role)
                    .noneMatch(a -> a.kind() == ActionRecord.Kind.CANCEL);
        }
    }

    private static void assertWholeOn(Lanes lanes, String system, String version) {
        assertThat(lanes.installedSetId(lanes.id(system, "lane"))).isEqualTo(lanes.set("app:" + version));
        assertThat(lanes.installedSetId(lanes.id(system, "term-a"))).isEqualTo(lanes.set("term:" + version));
        assertThat(lanes.installedSetId(lanes.id(system, "term-b"))).isEqualTo(lanes.set("term:" + version));
        assertThat(lanes.installedSetId(lanes.id(system, "display"))).isEqualTo(lanes.set("disp:" + version));
    }

    @Test
    void aSecondDeploymentOfASystemWaitsForTheFirstToFinishWithIt() {
        try (Lanes lanes = new Lanes("one-two-").withSetsAndType()) {
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            lanes.preinstall("1");
            lanes.behaviour("lane-01", "term-a", Behaviour.hold());
            int to2 = lanes.manifest("2.0", "2");
            int back1 = lanes.manifest("1.0", "1");

            int first = lanes.deploy(to2, "");
            awaitRun(first, "lane-01", "RUNNING");
            int second = lanes.deploy(back1, "");

            String waiting = "waiting for deployment \"" + lanes.prefix + "deployment\" (#" + first + ") to finish with this system";
            await().atMost(WITHIN).until(() -> waiting.equals(run(second, "lane-01", "reason")));
            assertThat(run(second, "lane-01", "state")).isEqualTo("PENDING");
            assertThat(Api.viewer().get("/qawk/v1/systemdeployments/" + second + "/plan").then().statusCode(200)
                    .extract().jsonPath().getString("systems[0].waiting")).isEqualTo(waiting);

            letGo(lanes, "lane-01", "term-a");
            awaitState(first, "FINISHED", WITHIN);
            awaitState(second, "FINISHED", WITHIN);
            assertThat(run(first, "lane-01", "state")).isEqualTo("SUCCEEDED");
            assertThat(run(second, "lane-01", "state")).isEqualTo("SUCCEEDED");
            assertNoCancel(lanes, "lane-01");
            assertWholeOn(lanes, "lane-01", "1");
            // the second photographed the system afresh: it went back from 2, not from what it ran before the first
            assertThat(Api.viewer().get("/qawk/v1/systemdeployments/" + second + "/plan").then().extract().jsonPath()
                    .getString("systems[0].devices.find { it.controllerId.endsWith('-lane') }.runs"))
                    .isEqualTo(lanes.prefix + "app:2");
            // going back to the first one's photograph would undo the second: refused, nothing changes
            int firstRun = runs(first).getInt("[0].id");
            Api.admin().body("{\"reason\": \"lane 1 is not scoring\"}")
                    .post("/qawk/v1/systemdeployments/" + first + "/runs/" + firstRun + "/rollback").then().statusCode(409)
                    .contentType("application/problem+json")
                    .body("detail", Matchers.containsString("(#" + second + ") has updated it since"));
            assertThat(run(first, "lane-01", "state")).isEqualTo("SUCCEEDED");
        }
    }

    @Test
    void aDeviceInTwoSystemTypesIsDrivenByOneDeploymentAtATime() {
        try (Lanes lanes = new Lanes("one-types-").withSetsAndType()) {
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            lanes.preinstall("1");
            lanes.behaviour("lane-01", "term-a", Behaviour.hold());
            // a second type sees every lane computer of a centre as one "centre system"
            int centreType = Api.admin().body("""
                    {"name": "%1$scentre", "systemKey": "attribute.centerid",
                     "components": [{"componentType": "lane", "match": "attribute.device_type==%1$slane"}]}
                    """.formatted(lanes.prefix)).post("/qawk/v1/systemtypes").then().statusCode(201).extract().path("id");
            sync();
            int centreManifest = Api.admin().body("""
                    {"name": "%scentre-1", "systemTypeId": %d, "components": [
                      {"componentType": "lane", "distributionSetId": %d, "order": 1}]}
                    """.formatted(lanes.prefix, centreType, lanes.set("app:2"))).post("/qawk/v1/manifests")
                    .then().statusCode(201).extract().path("id");

            int laneDeployment = lanes.deploy(lanes.manifest("2.0", "2"), "");
            awaitRun(laneDeployment, "lane-01", "RUNNING");
            int centre = lanes.deploy(centreManifest, "");
            await().atMost(WITHIN).until(() -> ("waiting for deployment \"" + lanes.prefix + "deployment\" (#" + laneDeployment
                    + ") to finish with this system").equals(run(centre, "c01", "reason")));

            letGo(lanes, "lane-01", "term-a");
            awaitState(laneDeployment, "FINISHED", WITHIN);
            awaitState(centre, "FINISHED", WITHIN);
            assertThat(run(laneDeployment, "lane-01", "state")).isEqualTo("SUCCEEDED");
            assertThat(run(centre, "c01", "state")).isEqualTo("SUCCEEDED");
            assertNoCancel(lanes, "lane-01");
            assertWholeOn(lanes, "lane-01", "2");
            assertThat(lanes.hawkbit.actions(lanes.id("lane-01", "lane"))).as("its preinstall and one app:2, after its terminals")
                    .hasSize(2);
            assertThat(runs(centre).getString("[0].reason")).contains("1 device(s) already were");
        }
    }

    @Test
    void aPromotionWhileTheChannelsDeploymentIsUnderWayLetsItFinishFirst() {
        try (Lanes lanes = new Lanes("one-promo-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "dev").system("lane-02", "c01", "beta");
            int beta = lanes.channel("beta", "");
            int dev = lanes.channel("dev", "\"promotesTo\": " + beta);
            lanes.discovered(2);
            lanes.preinstall("1");
            lanes.behaviour("lane-02", "display", Behaviour.hold());
            int to2 = lanes.manifest("2.0", "2");
            int back1 = lanes.manifest("1.0", "1");

            release(beta, "{\"manifestId\": " + to2 + "}");
            int old = channelView(beta).getInt("release.deploymentId");
            awaitRun(old, "lane-02", "RUNNING");
            release(dev, "{\"manifestId\": " + back1 + "}");
            await().atMost(WITHIN).until(() -> "COMPLETE".equals(channelView(dev).getString("release.state")));
            Api.admin().body("{}").post("/qawk/v1/fleets/" + dev + "/promote").then().statusCode(200);
            int fresh = channelView(beta).getInt("release.deploymentId");
            assertThat(fresh).isNotEqualTo(old);

            await().atMost(WITHIN).until(() -> String.valueOf(run(fresh, "lane-02", "reason")).startsWith("waiting for deployment"));
            letGo(lanes, "lane-02", "display");
            awaitState(fresh, "FINISHED", WITHIN);
            assertThat(run(old, "lane-02", "state")).isEqualTo("SUCCEEDED");
            assertThat(run(fresh, "lane-02", "state")).isEqualTo("SUCCEEDED");
            assertNoCancel(lanes, "lane-02");
            assertWholeOn(lanes, "lane-02", "1");
        }
    }

    @Test
    void aSystemThatTurnsMixedWhilePendingIsNotStartedUntilWholeAgain() {
        try (Lanes lanes = new Lanes("one-mixed-").withSetsAndType()) {
            int d = releaseToProdWhileASecondSystemWaits(lanes, "c01");

            lanes.move("lane-02", "beta", "term-b");
            sync();
            // mixed while it waited for its slot; once the slot is free, the engine says why it does not start it
            letGo(lanes, "lane-01", "lane");
            await().atMost(WITHIN).until(() -> ("mixed: " + lanes.id("lane-02", "term-b") + " is in " + lanes.prefix + "beta")
                    .equals(run(d, "lane-02", "reason")));
            awaitRun(d, "lane-01", "SUCCEEDED");
            staysFor(d, "lane-02", "PENDING", Duration.ofSeconds(5));
            for (String role : ROLES) {
                assertThat(lanes.hawkbit.actions(lanes.id("lane-02", role))).as(role).isEmpty();
            }

            lanes.move("lane-02", "prod", "term-b");
            sync();
            awaitState(d, "FINISHED", WITHIN);
            assertThat(run(d, "lane-02", "state")).isEqualTo("SUCCEEDED");
            assertWholeOn(lanes, "lane-02", "2");
        }
    }

    @Test
    void aSystemGivenUpWhenItsCentreLeftIsTakenAgainWhenItComesBack() {
        try (Lanes lanes = new Lanes("one-back-").withSetsAndType()) {
            int d = releaseToProdWhileASecondSystemWaits(lanes, "c02");

            lanes.move("lane-02", "beta");
            sync();
            awaitRun(d, "lane-02", "GIVEN_UP");
            // back while the deployment still runs (lane-01 held): let go first, and the deployment could finish
            // before the sync that brings lane-02 back (seen in a whole run)
            lanes.move("lane-02", "prod");
            sync();
            awaitRun(d, "lane-02", "PENDING");
            letGo(lanes, "lane-01", "lane");
            awaitState(d, "FINISHED", WITHIN);
            assertThat(run(d, "lane-02", "state")).isEqualTo("SUCCEEDED");
            assertWholeOn(lanes, "lane-02", "2");
        }
    }

    @Test
    void aSystemWhoseDevicesVanishedIsGivenUpNotCountedAsUpdated() {
        try (Lanes lanes = new Lanes("one-gone-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01");
            lanes.discovered(2);
            lanes.behaviour("lane-01", "lane", Behaviour.hold());
            int d = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 1");
            awaitRun(d, "lane-01", "RUNNING");
            for (String role : ROLES) {
                lanes.devices.setAttributes(lanes.id("lane-02", role), Map.of("device_type", lanes.prefix + "retired"));
            }
            await().atMost(WITHIN).untilAsserted(() -> assertThat(lanes.hawkbit.findTargetIds(
                    "attribute.device_type==" + lanes.prefix + "retired")).hasSize(4));
            sync();
            letGo(lanes, "lane-01", "lane");

            JsonPath done = awaitState(d, "FINISHED", WITHIN);
            assertThat(run(d, "lane-02", "state")).isEqualTo("GIVEN_UP");
            assertThat(run(d, "lane-02", "reason")).isEqualTo("given up: none of its devices is in the inventory any more");
            assertThat(done.getString("summary")).startsWith("1 of 2 updated");
        }
    }

    @Test
    void aReleaseHaltedByItsStandaloneDevicesStartsNoNewSystemUntilResumedButTakesOneAgain() {
        try (Lanes lanes = new Lanes("one-halt-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "prod").system("lane-02", "c01", "prod").standalone("kiosk-1", "prod");
            // the kiosk fails once lane-01 is under way, and lane-01 fails only after that: the release halts in between
            lanes.devices.setBehaviour(lanes.prefix + "kiosk-1", Behaviour.failAfter(Duration.ofSeconds(4)));
            lanes.behaviour("lane-01", "display", Behaviour.hold());
            int prod = lanes.channel("prod", "\"orchestrator\": {\"maxParallel\": 1, \"maxFailed\": 1}");
            lanes.discovered(2);
            long solo = lanes.hawkbit.createDistributionSet(lanes.prefix + "solo", "2");
            release(prod, "{\"distributionSetId\": " + solo + ", \"manifestId\": " + lanes.manifest("2.0", "2") + "}");
            int d = channelView(prod).getInt("release.deploymentId");

            awaitRun(d, "lane-01", "RUNNING");
            await().atMost(WITHIN).until(() -> "HALTED".equals(channelView(prod).getString("release.state")));
            assertThat(run(d, "lane-01", "state")).as("halted before its only system under way ended").isEqualTo("RUNNING");
            lanes.behaviour("lane-01", "display", Behaviour.failFor(lanes.set("disp:2")));
            awaitRun(d, "lane-01", "ROLLED_BACK");
            staysFor(d, "lane-02", "PENDING", Duration.ofSeconds(5));
            assertThat(lanes.hawkbit.actions(lanes.id("lane-02", "lane"))).isEmpty();
            assertThat(Api.viewer().get("/qawk/v1/systemdeployments/" + d + "/plan").then().extract().jsonPath()
                    .getString("systems.find { it.system == 'lane-02' }.waiting")).contains("release is halted");

            // a person's decision about one system: taken again while the release stays halted
            lanes.behaviour("lane-01", "display", Behaviour.succeed());
            int runId = runs(d).getInt("find { it.system == 'lane-01' }.id");
            Api.admin().body("{\"reason\": \"display replaced\"}")
                    .post("/qawk/v1/systemdeployments/" + d + "/runs/" + runId + "/retry").then().statusCode(200);
            awaitRun(d, "lane-01", "SUCCEEDED");
            assertThat(channelView(prod).getString("release.state")).isEqualTo("HALTED");
            assertThat(run(d, "lane-02", "state")).isEqualTo("PENDING");

            lanes.devices.setBehaviour(lanes.prefix + "kiosk-1", Behaviour.succeed());
            Api.admin().post("/qawk/v1/fleets/" + prod + "/resume").then().statusCode(200);
            awaitRun(d, "lane-02", "SUCCEEDED");
            assertWholeOn(lanes, "lane-02", "2");
        }
    }

    @Test
    void takingASystemAgainStartsItWhateverTheFailureBudgetSays() {
        try (Lanes lanes = new Lanes("one-again-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01").system("lane-03", "c01");
            lanes.discovered(3);
            lanes.preinstall("1");
            lanes.behaviour("lane-01", "display", Behaviour.failFor(lanes.set("disp:2")));
            lanes.behaviour("lane-02", "display", Behaviour.failFor(lanes.set("disp:2")));
            int d = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 2, \"maxFailed\": 0");
            awaitState(d, "FAILED", WITHIN);
            assertThat(run(d, "lane-01", "state")).isEqualTo("ROLLED_BACK");
            assertThat(run(d, "lane-02", "state")).isEqualTo("ROLLED_BACK");

            lanes.behaviour("lane-01", "display", Behaviour.succeed());
            int runId = runs(d).getInt("find { it.system == 'lane-01' }.id");
            Api.admin().body("{\"reason\": \"display replaced\"}")
                    .post("/qawk/v1/systemdeployments/" + d + "/runs/" + runId + "/retry").then().statusCode(200);

            awaitRun(d, "lane-01", "SUCCEEDED");
            assertWholeOn(lanes, "lane-01", "2");
            awaitState(d, "FAILED", WITHIN);
            assertThat(run(d, "lane-03", "state")).as("never started: the budget still stops it").isEqualTo("PENDING");
            assertThat(lanes.hawkbit.actions(lanes.id("lane-03", "lane"))).as("only its preinstall").hasSize(1);
            assertThat(lanes.installedSetId(lanes.id("lane-03", "lane"))).isEqualTo(lanes.set("app:1"));
        }
    }
}
