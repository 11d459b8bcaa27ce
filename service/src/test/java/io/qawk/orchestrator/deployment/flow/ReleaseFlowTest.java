package io.qawk.orchestrator.deployment.flow;

import static io.qawk.orchestrator.deployment.flow.Flow.deployment;
import static io.qawk.orchestrator.deployment.flow.Flow.run;
import static io.qawk.orchestrator.deployment.flow.Flow.runId;
import static io.qawk.orchestrator.deployment.flow.Flow.state;
import static io.qawk.orchestrator.deployment.flow.Flow.tick;
import static io.qawk.orchestrator.deployment.flow.Flow.tickUntil;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.qawk.orchestrator.deployment.plan.StartRules;
import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.Outcome;
import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.SetInfo;
import io.qawk.orchestrator.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * A channel's release and its deployment, as a flow: a halted release starts nothing new on either half until resumed
 * while what is under way finishes, and a release that supersedes one whose deployment is under way on a system waits
 * for that run instead of cancelling it in hawkBit.
 */
@QuarkusTest
@TestProfile(FlowProfile.class)
@Tag("flow")
@ExtendWith(FlowTiming.class)
class ReleaseFlowTest {

    private static JsonPath channelView(int id) {
        return Api.viewer().get("/qawk/v1/fleets/" + id).then().statusCode(200).extract().jsonPath();
    }

    /** Releases to the channel ({@code body}: its set and/or manifest); returns the release's deployment, if any. */
    private static int release(int channel, String body) {
        Api.admin().body(body).put("/qawk/v1/fleets/" + channel).then().statusCode(200);
        return channelView(channel).getInt("release.deploymentId");
    }

    /**
     * Moved from OneDriverEndToEndTest: a standalone device fails beyond the channel's budget while lane-01 is under
     * way; the release halts. lane-01 finishes (back, as its display fails), lane-02 and the second standalone device
     * are sent nothing while it is halted, however many passes come; a person's take again still takes lane-01; once
     * resumed, both halves go on.
     */
    @Test
    void aHaltedReleaseStartsNothingNewUntilResumedWhileWhatIsUnderWayFinishes() {
        Flow f = new Flow("fr-halt-").withSetsAndType().system("lane-01", "c01", "prod")
                .system("lane-02", "c01", "prod").standalone("kiosk-1", "prod").standalone("kiosk-2", "prod");
        int prod = f.channel("prod", "\"orchestrator\": {\"maxParallel\": 1, \"maxFailed\": 1},"
                + " \"devices\": {\"maxFailed\": 0, \"batchSize\": 1}");
        f.discovered(2);
        f.behave("kiosk-1", Flow.Behaviour.silent());
        f.behave("lane-01", "display", Flow.Behaviour.silent());
        long solo = f.hawkbit.addDistributionSet(f.prefix + "solo", "2");
        int d = release(prod, "{\"distributionSetId\": " + solo + ", \"manifestId\": " + f.manifest("2.0", "2") + "}");

        tickUntil(6, "lane-01's display sent", () -> "ASSIGNED".equals(f.deviceState(d, "lane-01", "display")));
        assertThat(f.hawkbit.actions(f.prefix + "kiosk-1")).as("the first batch").hasSize(1);
        f.report("kiosk-1", Outcome.FAILURE);
        tickUntil(3, "halted", () -> "HALTED".equals(channelView(prod).getString("release.state")));
        assertThat(run(d, "lane-01", "state")).as("halted while its system was under way").isEqualTo("RUNNING");

        f.report("lane-01", "display", Outcome.FAILURE);
        tickUntil(10, "lane-01 back", () -> "ROLLED_BACK".equals(run(d, "lane-01", "state")));
        tick(4);
        assertThat(state(d)).as("within its budget: only the halt stops it").isEqualTo("RUNNING");
        assertThat(run(d, "lane-02", "state")).isEqualTo("PENDING");
        for (String role : Flow.ROLES) {
            assertThat(f.assignedSets("lane-02", role)).as("lane-02 " + role).isEmpty();
        }
        assertThat(f.hawkbit.actions(f.prefix + "kiosk-2")).as("no new batch").isEmpty();
        assertThat(Api.viewer().get("/qawk/v1/systemdeployments/" + d + "/plan").then().statusCode(200).extract()
                .jsonPath().getString("systems.find { it.system == 'lane-02' }.waiting")).isEqualTo(StartRules.HALTED);

        // a person's decision about one system: taken again while the release stays halted
        Api.admin().body("{\"reason\": \"display replaced\"}").post("/qawk/v1/systemdeployments/" + d + "/runs/"
                + runId(d, "lane-01") + "/retry").then().statusCode(200);
        tickUntil(10, "lane-01 updated", () -> "SUCCEEDED".equals(run(d, "lane-01", "state")));
        tick(2);
        assertThat(channelView(prod).getString("release.state")).isEqualTo("HALTED");
        assertThat(run(d, "lane-02", "state")).isEqualTo("PENDING");
        assertThat(f.hawkbit.actions(f.prefix + "kiosk-2")).isEmpty();

        Api.admin().post("/qawk/v1/fleets/" + prod + "/resume").then().statusCode(200);
        tickUntil(12, "complete", () -> "COMPLETE".equals(channelView(prod).getString("release.state")));
        assertThat(state(d)).isEqualTo("FINISHED");
        assertThat(run(d, "lane-02", "state")).isEqualTo("SUCCEEDED");
        f.assertWholeOn("lane-02", "2");
        assertThat(f.hawkbit.installed(f.prefix + "kiosk-2")).map(SetInfo::label).contains(f.prefix + "solo:2");
    }

    /**
     * Moved from OneDriverEndToEndTest: lane-02 is under way in beta's deployment (its display silent) when dev's
     * release of 1.0 is promoted to beta. The old deployment is aborted, and its run goes on; the new deployment's run
     * waits for it, sends nothing meanwhile, then takes lane-02 back to 1; nothing is cancelled in hawkBit.
     */
    @Test
    void aPromotionWhileTheChannelsDeploymentIsUnderWayLetsItFinishFirst() {
        Flow f = new Flow("fr-promo-").withSetsAndType().system("lane-01", "c01", "dev")
                .system("lane-02", "c01", "beta");
        int beta = f.channel("beta", "");
        int dev = f.channel("dev", "\"promotesTo\": " + beta);
        f.discovered(2);
        f.behave("lane-02", "display", Flow.Behaviour.silent());
        int to2 = f.manifest("2.0", "2");
        int back1 = f.manifest("1.0", "1");
        int old = release(beta, "{\"manifestId\": " + to2 + "}");
        tickUntil(6, "lane-02's display sent", () -> "ASSIGNED".equals(f.deviceState(old, "lane-02", "display")));
        release(dev, "{\"manifestId\": " + back1 + "}");
        tickUntil(8, "dev complete", () -> "COMPLETE".equals(channelView(dev).getString("release.state")));

        Api.admin().body("{}").post("/qawk/v1/fleets/" + dev + "/promote").then().statusCode(200);
        int fresh = channelView(beta).getInt("release.deploymentId");
        assertThat(fresh).isNotEqualTo(old);
        waitsForTheOldRunThenGoes(f, old, fresh);
    }

    /** The same with a new release of the channel itself: the superseded deployment's run finishes first. */
    @Test
    void aNewReleaseWhileTheChannelsDeploymentIsUnderWayLetsItFinishFirst() {
        Flow f = new Flow("fr-new-").withSetsAndType().system("lane-02", "c01", "beta");
        int beta = f.channel("beta", "");
        f.discovered(1);
        f.behave("lane-02", "display", Flow.Behaviour.silent());
        int old = release(beta, "{\"manifestId\": " + f.manifest("2.0", "2") + "}");
        tickUntil(6, "lane-02's display sent", () -> "ASSIGNED".equals(f.deviceState(old, "lane-02", "display")));

        int fresh = release(beta, "{\"manifestId\": " + f.manifest("1.0", "1") + "}");
        assertThat(fresh).isNotEqualTo(old);
        waitsForTheOldRunThenGoes(f, old, fresh);
    }

    /** lane-02 under way in {@code old} (its display silent, on 2), {@code fresh} going to 1: superseding waits. */
    private static void waitsForTheOldRunThenGoes(Flow f, int old, int fresh) {
        String waiting = StartRules.waitingFor(deployment(old).getString("name"), old);
        tickUntil(3, "the new run waits", () -> waiting.equals(run(fresh, "lane-02", "reason")));
        tick(3);
        assertThat(state(old)).as("aborted, its run under way").isEqualTo("ABORTING");
        assertThat(run(old, "lane-02", "state")).isEqualTo("RUNNING");
        assertThat(run(fresh, "lane-02", "state")).isEqualTo("PENDING");
        assertThat(f.assignedSets("lane-02", "display")).as("nothing sent by the new one").containsExactly("disp:2");
        assertThat(f.assignedSets("lane-02", "lane")).isEmpty();

        f.report("lane-02", "display", Outcome.SUCCESS);
        tickUntil(15, "the new one finished", () -> "FINISHED".equals(state(fresh)));
        assertThat(state(old)).isEqualTo("ABORTED");
        assertThat(run(old, "lane-02", "state")).isEqualTo("SUCCEEDED");
        assertThat(run(fresh, "lane-02", "state")).isEqualTo("SUCCEEDED");
        assertThat(f.assignedSets("lane-02", "display")).containsExactly("disp:2", "disp:1");
        assertThat(f.assignedSets("lane-02", "lane")).containsExactly("app:2", "app:1");
        f.assertNoCancel("lane-02");
        f.assertWholeOn("lane-02", "1");
    }
}
