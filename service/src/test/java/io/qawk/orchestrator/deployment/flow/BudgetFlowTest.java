package io.qawk.orchestrator.deployment.flow;

import static io.qawk.orchestrator.deployment.flow.Flow.run;
import static io.qawk.orchestrator.deployment.flow.Flow.runId;
import static io.qawk.orchestrator.deployment.flow.Flow.runs;
import static io.qawk.orchestrator.deployment.flow.Flow.state;
import static io.qawk.orchestrator.deployment.flow.Flow.tick;
import static io.qawk.orchestrator.deployment.flow.Flow.tickUntil;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.Outcome;
import io.qawk.orchestrator.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Which systems a deployment starts, as a flow: never more under way than maxParallel, none new once more failed
 * than maxFailed allows, one centre after the other with byCentre, and a system taken again whatever the budget says.
 */
@QuarkusTest
@TestProfile(FlowProfile.class)
@Tag("flow")
@ExtendWith(FlowTiming.class)
class BudgetFlowTest {

    private static long underWay(int deployment) {
        return runs(deployment).<String>getList("state").stream().filter(s -> List.of("RUNNING", "ROLLING_BACK",
                "VERIFYING").contains(s)).count();
    }

    /** Three systems, two at a time: the third starts only once one of the first two is done. */
    @Test
    void neverMoreUnderWayThanMaxParallel() {
        Flow f = new Flow("fb-parallel-").withSetsAndType().system("lane-01", "c01").system("lane-02", "c01")
                .system("lane-03", "c01").discovered(3);
        for (String s : List.of("lane-01", "lane-02", "lane-03")) {
            f.behave(s, "term-a", Flow.Behaviour.silent());
        }
        int d = f.deploy(f.manifest("2.0", "2"), "\"maxParallel\": 2");
        for (int i = 0; i < 5; i++) {
            tick();
            assertThat(underWay(d)).as("under way after pass %d", i + 1).isLessThanOrEqualTo(2);
        }
        assertThat(run(d, "lane-01", "state")).isEqualTo("RUNNING");
        assertThat(run(d, "lane-02", "state")).isEqualTo("RUNNING");
        assertThat(run(d, "lane-03", "state")).isEqualTo("PENDING");
        assertThat(f.assignedSets("lane-03", "term-a")).isEmpty();

        f.report("lane-01", "term-a", Outcome.SUCCESS);
        tickUntil(5, "lane-03 started", () -> "RUNNING".equals(run(d, "lane-03", "state")));
        assertThat(run(d, "lane-01", "state")).isEqualTo("SUCCEEDED");
        assertThat(underWay(d)).isEqualTo(2);
        f.report("lane-02", "term-a", Outcome.SUCCESS);
        tickUntil(5, "lane-03 sent", () -> "ASSIGNED".equals(f.deviceState(d, "lane-03", "term-a")));
        f.report("lane-03", "term-a", Outcome.SUCCESS);
        tickUntil(8, "finished", () -> "FINISHED".equals(state(d)));
    }

    /** maxFailed 0: the first system that goes back fails the deployment, and no system is started after it. */
    @Test
    void noNewSystemOnceMoreFailedThanMaxFailed() {
        Flow f = new Flow("fb-failed-").withSetsAndType().system("lane-01", "c01").system("lane-02", "c01")
                .system("lane-03", "c01").discovered(3);
        f.behave("lane-01", "display", Flow.Behaviour.failFor(f.prefix + "disp:2"));
        int d = f.deploy(f.manifest("2.0", "2"), "\"maxParallel\": 1, \"maxFailed\": 0");

        tickUntil(12, "failed", () -> "FAILED".equals(state(d)));
        tick(3);
        assertThat(state(d)).isEqualTo("FAILED");
        assertThat(run(d, "lane-01", "state")).isEqualTo("ROLLED_BACK");
        for (String s : List.of("lane-02", "lane-03")) {
            assertThat(run(d, s, "state")).as(s).isEqualTo("PENDING");
            for (String role : Flow.ROLES) {
                assertThat(f.assignedSets(s, role)).as(s + " " + role).isEmpty();
            }
        }
    }

    /** byCentre: c02's system starts only once every system of c01 is done, though a slot is free. */
    @Test
    void byCentreStartsTheNextCentreOnlyOnceTheLastIsDone() {
        Flow f = new Flow("fb-centre-").withSetsAndType().system("lane-01", "c01").system("lane-02", "c01")
                .system("lane-03", "c02").discovered(3);
        f.behave("lane-01", "term-a", Flow.Behaviour.silent());
        int d = f.deploy(f.manifest("2.0", "2"), "\"maxParallel\": 3, \"byCentre\": true");

        tickUntil(8, "lane-02 done", () -> "SUCCEEDED".equals(run(d, "lane-02", "state")));
        tick(2);
        assertThat(run(d, "lane-01", "state")).isEqualTo("RUNNING");
        assertThat(run(d, "lane-03", "state")).as("c02 waits for c01").isEqualTo("PENDING");
        assertThat(f.assignedSets("lane-03", "term-a")).isEmpty();

        f.report("lane-01", "term-a", Outcome.SUCCESS);
        tickUntil(12, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(run(d, "lane-03", "state")).isEqualTo("SUCCEEDED");
    }

    /**
     * Moved from OneDriverEndToEndTest: a system taken again starts on the next pass whatever the failure budget
     * says; the budget still stops the system never started.
     */
    @Test
    void takingASystemAgainStartsItWhateverTheFailureBudgetSays() {
        Flow f = new Flow("fb-again-").withSetsAndType().system("lane-01", "c01").system("lane-02", "c01")
                .system("lane-03", "c01").discovered(3);
        f.behave("lane-01", "display", Flow.Behaviour.failFor(f.prefix + "disp:2"));
        f.behave("lane-02", "display", Flow.Behaviour.failFor(f.prefix + "disp:2"));
        int d = f.deploy(f.manifest("2.0", "2"), "\"maxParallel\": 2, \"maxFailed\": 0");
        tickUntil(12, "failed", () -> "FAILED".equals(state(d)));
        assertThat(run(d, "lane-01", "state")).isEqualTo("ROLLED_BACK");
        assertThat(run(d, "lane-02", "state")).isEqualTo("ROLLED_BACK");

        f.behave("lane-01", "display", Flow.Behaviour.succeed());
        Api.admin().body("{\"reason\": \"display replaced\"}").post("/qawk/v1/systemdeployments/" + d + "/runs/"
                + runId(d, "lane-01") + "/retry").then().statusCode(200);
        tick();
        assertThat(run(d, "lane-01", "state")).as("started on the next pass").isEqualTo("RUNNING");
        tickUntil(8, "lane-01 updated", () -> "SUCCEEDED".equals(run(d, "lane-01", "state")));
        assertThat(f.installed("lane-01", "lane")).isEqualTo("app:2");
        assertThat(f.installed("lane-01", "term-a")).isEqualTo("term:2");
        assertThat(f.installed("lane-01", "term-b")).isEqualTo("term:2");
        assertThat(f.installed("lane-01", "display")).isEqualTo("disp:2");
        tick();
        assertThat(state(d)).isEqualTo("FAILED");
        assertThat(run(d, "lane-03", "state")).as("never started: the budget still stops it").isEqualTo("PENDING");
        assertThat(f.assignedSets("lane-03", "lane")).as("only its preinstall").isEmpty();
        assertThat(f.installed("lane-03", "lane")).isEqualTo("app:1");
    }
}
