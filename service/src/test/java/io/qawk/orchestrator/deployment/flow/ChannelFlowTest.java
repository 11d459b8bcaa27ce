package io.qawk.orchestrator.deployment.flow;

import static io.qawk.orchestrator.deployment.flow.Flow.deployment;
import static io.qawk.orchestrator.deployment.flow.Flow.run;
import static io.qawk.orchestrator.deployment.flow.Flow.state;
import static io.qawk.orchestrator.deployment.flow.Flow.sync;
import static io.qawk.orchestrator.deployment.flow.Flow.tick;
import static io.qawk.orchestrator.deployment.flow.Flow.tickUntil;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.Outcome;
import io.qawk.orchestrator.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Following a channel, as a flow: a channel's deployment starts a system only while it is whole in the channel,
 * gives up a system that left and takes it again when it comes back; a system whose devices vanished is given up.
 */
@QuarkusTest
@TestProfile(FlowProfile.class)
@Tag("flow")
@ExtendWith(FlowTiming.class)
class ChannelFlowTest {

    /** Moves devices of a system (some roles, or all) to another channel: they report it, and the inventory syncs. */
    private static void move(Flow f, String system, String channel, String... roles) {
        for (String role : roles.length == 0 ? Flow.ROLES.toArray(String[]::new) : roles) {
            f.hawkbit.setAttribute(f.id(system, role), "channel", f.prefix + channel);
        }
        sync();
    }

    /**
     * Channels prod and beta; lane-01 (its lane computer silent) and lane-02 (in {@code centre}) in prod, released
     * with maxParallel 1: returns the deployment once lane-01 is under way and lane-02 waits for its slot.
     */
    private static int releaseToProdWhileASecondSystemWaits(Flow f, String centre) {
        f.withSetsAndType().system("lane-01", "c01", "prod").system("lane-02", centre, "prod");
        int prod = f.channel("prod", "\"orchestrator\": {\"maxParallel\": 1, \"maxFailed\": 0}");
        f.channel("beta", "");
        f.discovered(2);
        f.behave("lane-01", "lane", Flow.Behaviour.silent());
        Api.admin().body("{\"manifestId\": " + f.manifest("2.0", "2") + "}").put("/qawk/v1/fleets/" + prod).then()
                .statusCode(200);
        int d = Api.viewer().get("/qawk/v1/fleets/" + prod).then().statusCode(200).extract().jsonPath()
                .getInt("release.deploymentId");
        tickUntil(6, "lane-01's lane computer sent", () -> "ASSIGNED".equals(f.deviceState(d, "lane-01", "lane")));
        assertThat(run(d, "lane-02", "state")).isEqualTo("PENDING");
        return d;
    }

    /** Moved from OneDriverEndToEndTest: mixed while it waited for its slot, it starts only once whole again. */
    @Test
    void aSystemThatTurnsMixedWhilePendingIsNotStartedUntilWholeAgain() {
        Flow f = new Flow("fc-mixed-");
        int d = releaseToProdWhileASecondSystemWaits(f, "c01");

        move(f, "lane-02", "beta", "term-b");
        f.report("lane-01", "lane", Outcome.SUCCESS);
        String mixed = "mixed: " + f.id("lane-02", "term-b") + " is in " + f.prefix + "beta";
        tickUntil(6, "lane-02 said mixed", () -> mixed.equals(run(d, "lane-02", "reason")));
        tickUntil(4, "lane-01 done", () -> "SUCCEEDED".equals(run(d, "lane-01", "state")));
        tick(3);
        assertThat(run(d, "lane-02", "state")).isEqualTo("PENDING");
        for (String role : Flow.ROLES) {
            assertThat(f.assignedSets("lane-02", role)).as(role).isEmpty();
        }

        move(f, "lane-02", "prod", "term-b");
        tickUntil(12, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(run(d, "lane-02", "state")).isEqualTo("SUCCEEDED");
        assertThat(f.installed("lane-02", "lane")).isEqualTo("app:2");
        assertThat(f.installed("lane-02", "term-b")).isEqualTo("term:2");
    }

    /** Moved from OneDriverEndToEndTest: a system that left the channel is given up, and taken again when back. */
    @Test
    void aSystemGivenUpWhenItsCentreLeftIsTakenAgainWhenItComesBack() {
        Flow f = new Flow("fc-back-");
        int d = releaseToProdWhileASecondSystemWaits(f, "c02");

        move(f, "lane-02", "beta");
        tickUntil(4, "lane-02 given up", () -> "GIVEN_UP".equals(run(d, "lane-02", "state")));
        move(f, "lane-02", "prod");
        tickUntil(4, "lane-02 taken again", () -> "PENDING".equals(run(d, "lane-02", "state")));
        f.report("lane-01", "lane", Outcome.SUCCESS);
        tickUntil(12, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(run(d, "lane-02", "state")).isEqualTo("SUCCEEDED");
        assertThat(f.installed("lane-02", "lane")).isEqualTo("app:2");
        assertThat(f.installed("lane-02", "display")).isEqualTo("disp:2");
    }

    /** Moved from OneDriverEndToEndTest: a system none of whose devices is in the inventory any more is given up. */
    @Test
    void aSystemWhoseDevicesVanishedIsGivenUpNotCountedAsUpdated() {
        Flow f = new Flow("fc-gone-").withSetsAndType().system("lane-01", "c01").system("lane-02", "c01")
                .discovered(2);
        f.behave("lane-01", "lane", Flow.Behaviour.silent());
        int d = f.deploy(f.manifest("2.0", "2"), "\"maxParallel\": 1");
        tickUntil(6, "lane-01's lane computer sent", () -> "ASSIGNED".equals(f.deviceState(d, "lane-01", "lane")));
        for (String role : Flow.ROLES) {
            f.hawkbit.setAttribute(f.id("lane-02", role), "device_type", f.prefix + "retired");
        }
        sync();
        f.report("lane-01", "lane", Outcome.SUCCESS);

        tickUntil(10, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(run(d, "lane-02", "state")).isEqualTo("GIVEN_UP");
        assertThat(run(d, "lane-02", "reason")).isEqualTo("given up: none of its devices is in the inventory any more");
        assertThat(deployment(d).getString("summary")).startsWith("1 of 2 updated");
    }
}
