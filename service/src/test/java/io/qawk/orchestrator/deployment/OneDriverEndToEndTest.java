package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.ActionRecord;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static io.qawk.orchestrator.testsupport.Lanes.channelView;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One system, one driver, against the real hawkBit with simulated lanes, where it takes channels' releases: a
 * promotion lets the superseded deployment finish first and cancels nothing in hawkBit, and a release halted by its
 * standalone devices starts no new system while a person's take again still takes. The rest of these rules (a second
 * deployment waits, a device in two types, mixed, given up and taken again, vanished, take again and the budget) is
 * proven as a flow, in seconds: {@code deployment/flow} ({@code DriversFlowTest}, {@code ChannelFlowTest},
 * {@code BudgetFlowTest}).
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
}
