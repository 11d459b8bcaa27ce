package io.qawk.orchestrator.deployment.flow;

import static io.qawk.orchestrator.deployment.flow.Flow.run;
import static io.qawk.orchestrator.deployment.flow.Flow.runId;
import static io.qawk.orchestrator.deployment.flow.Flow.runs;
import static io.qawk.orchestrator.deployment.flow.Flow.state;
import static io.qawk.orchestrator.deployment.flow.Flow.tick;
import static io.qawk.orchestrator.deployment.flow.Flow.tickUntil;
import static org.assertj.core.api.Assertions.assertThat;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.Outcome;
import io.qawk.orchestrator.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Who drives a system, and an operator's commands, as a flow: one deployment at a time per system (a device in two
 * system types too), abort and pause.
 */
@QuarkusTest
@TestProfile(FlowProfile.class)
@Tag("flow")
@ExtendWith(FlowTiming.class)
class DriversFlowTest {

    /**
     * Moved from OneDriverEndToEndTest: a second deployment of a system under way waits, with a reason, until the
     * first is done with it; it photographs the system afresh; going back to the first one's photograph is refused.
     */
    @Test
    void aSecondDeploymentOfASystemWaitsForTheFirstToFinishWithIt() {
        Flow f = new Flow("fd-two-").withSetsAndType().system("lane-01", "c01").discovered(1);
        f.behave("lane-01", "term-a", Flow.Behaviour.silent());
        int to2 = f.manifest("2.0", "2");
        int back1 = f.manifest("1.0", "1");

        int first = f.deploy(to2, "");
        tickUntil(3, "first under way", () -> "RUNNING".equals(run(first, "lane-01", "state")));
        int second = f.deploy(back1, "");
        String waiting = "waiting for deployment \"" + f.prefix + "deployment\" (#" + first
                + ") to finish with this system";
        tickUntil(2, "second waits", () -> waiting.equals(run(second, "lane-01", "reason")));
        tick(2);
        assertThat(run(second, "lane-01", "state")).isEqualTo("PENDING");
        assertThat(Api.viewer().get("/qawk/v1/systemdeployments/" + second + "/plan").then().statusCode(200)
                .extract().jsonPath().getString("systems[0].waiting")).isEqualTo(waiting);

        f.report("lane-01", "term-a", Outcome.SUCCESS);
        tickUntil(15, "both finished", () -> "FINISHED".equals(state(first)) && "FINISHED".equals(state(second)));
        assertThat(run(first, "lane-01", "state")).isEqualTo("SUCCEEDED");
        assertThat(run(second, "lane-01", "state")).isEqualTo("SUCCEEDED");
        f.assertNoCancel("lane-01");
        f.assertWholeOn("lane-01", "1");
        // the second photographed the system afresh: it went back from 2, not from what it ran before the first
        assertThat(Api.viewer().get("/qawk/v1/systemdeployments/" + second + "/plan").then().extract().jsonPath()
                .getString("systems[0].devices.find { it.controllerId.endsWith('-lane') }.runs"))
                .isEqualTo(f.prefix + "app:2");
        // going back to the first one's photograph would undo the second: refused, nothing changes
        Api.admin().body("{\"reason\": \"lane 1 is not scoring\"}")
                .post("/qawk/v1/systemdeployments/" + first + "/runs/" + runId(first, "lane-01") + "/rollback").then()
                .statusCode(409).contentType("application/problem+json")
                .body("detail", Matchers.containsString("(#" + second + ") has updated it since"));
        assertThat(run(first, "lane-01", "state")).isEqualTo("SUCCEEDED");
    }

    /**
     * Moved from OneDriverEndToEndTest: a second type sees every lane computer of a centre as one "centre system"; a
     * deployment of it waits for the lane deployment under way on a shared device, and sends nothing twice.
     */
    @Test
    void aDeviceInTwoSystemTypesIsDrivenByOneDeploymentAtATime() {
        Flow f = new Flow("fd-types-").withSetsAndType().system("lane-01", "c01").discovered(1);
        f.behave("lane-01", "term-a", Flow.Behaviour.silent());
        int centreType = Api.admin().body("""
                {"name": "%1$scentre", "systemKey": "attribute.centerid",
                 "components": [{"componentType": "lane", "match": "attribute.device_type==%1$slane"}]}
                """.formatted(f.prefix)).post("/qawk/v1/systemtypes").then().statusCode(201).extract().path("id");
        Flow.sync();
        int centreManifest = Api.admin().body("""
                {"name": "%scentre-1", "systemTypeId": %d, "components": [
                  {"componentType": "lane", "distributionSetId": %d, "order": 1}]}
                """.formatted(f.prefix, centreType, f.set("app:2"))).post("/qawk/v1/manifests")
                .then().statusCode(201).extract().path("id");

        int laneDeployment = f.deploy(f.manifest("2.0", "2"), "");
        tickUntil(3, "lanes under way", () -> "RUNNING".equals(run(laneDeployment, "lane-01", "state")));
        int centre = f.deploy(centreManifest, "");
        tickUntil(2, "centre waits", () -> ("waiting for deployment \"" + f.prefix + "deployment\" (#"
                + laneDeployment + ") to finish with this system").equals(run(centre, "c01", "reason")));

        f.report("lane-01", "term-a", Outcome.SUCCESS);
        tickUntil(15, "both finished", () -> "FINISHED".equals(state(laneDeployment))
                && "FINISHED".equals(state(centre)));
        assertThat(run(laneDeployment, "lane-01", "state")).isEqualTo("SUCCEEDED");
        assertThat(run(centre, "c01", "state")).isEqualTo("SUCCEEDED");
        f.assertNoCancel("lane-01");
        f.assertWholeOn("lane-01", "2");
        assertThat(f.assignedSets("lane-01", "lane")).as("one app:2, after its terminals").containsExactly("app:2");
        assertThat(runs(centre).getString("[0].reason")).contains("1 device(s) already were");
    }

    /** An abort starts nothing new: the system under way finishes, the pending one is skipped and never sent to. */
    @Test
    void anAbortLetsTheSystemUnderWayFinishAndStartsNoOther() {
        Flow f = new Flow("fd-abort-").withSetsAndType().system("lane-01", "c01").system("lane-02", "c01")
                .discovered(2);
        f.behave("lane-01", "term-a", Flow.Behaviour.silent());
        int d = f.deploy(f.manifest("2.0", "2"), "\"maxParallel\": 1");
        tickUntil(3, "lane-01 sent", () -> "ASSIGNED".equals(f.deviceState(d, "lane-01", "term-a")));

        Api.admin().post("/qawk/v1/systemdeployments/" + d + "/abort").then().statusCode(200);
        f.report("lane-01", "term-a", Outcome.SUCCESS);
        tickUntil(10, "aborted", () -> "ABORTED".equals(state(d)));
        assertThat(run(d, "lane-01", "state")).isEqualTo("SUCCEEDED");
        f.assertWholeOn("lane-01", "2");
        assertThat(run(d, "lane-02", "state")).isEqualTo("SKIPPED");
        for (String role : Flow.ROLES) {
            assertThat(f.assignedSets("lane-02", role)).as(role).isEmpty();
        }
    }

    /** A paused deployment sends nothing, however many passes come; resumed, it goes on where it stood. */
    @Test
    void aPausedDeploymentSendsNothingUntilResumed() {
        Flow f = new Flow("fd-pause-").withSetsAndType().system("lane-01", "c01").discovered(1);
        int d = f.deploy(f.manifest("2.0", "2"), "");
        Api.admin().post("/qawk/v1/systemdeployments/" + d + "/pause").then().statusCode(200);
        tick(4);
        assertThat(state(d)).isEqualTo("PAUSED");
        for (String role : Flow.ROLES) {
            assertThat(f.assignedSets("lane-01", role)).as(role).isEmpty();
        }

        Api.admin().post("/qawk/v1/systemdeployments/" + d + "/resume").then().statusCode(200);
        tickUntil(10, "finished", () -> "FINISHED".equals(state(d)));
        f.assertWholeOn("lane-01", "2");
    }
}
