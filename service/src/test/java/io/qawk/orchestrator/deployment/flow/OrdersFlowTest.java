package io.qawk.orchestrator.deployment.flow;

import static io.qawk.orchestrator.deployment.flow.Flow.deployment;
import static io.qawk.orchestrator.deployment.flow.Flow.messages;
import static io.qawk.orchestrator.deployment.flow.Flow.run;
import static io.qawk.orchestrator.deployment.flow.Flow.state;
import static io.qawk.orchestrator.deployment.flow.Flow.tick;
import static io.qawk.orchestrator.deployment.flow.Flow.tickUntil;
import static io.qawk.orchestrator.deployment.flow.Flow.watch;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.Outcome;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Inside one system, as a flow: order by order forward, the whole system back when a device fails, a device that
 * times out named as timed out, and an assignment hawkBit refuses ending the run, not the deployment.
 */
@QuarkusTest
@TestProfile(FlowProfile.class)
@Tag("flow")
@ExtendWith(FlowTiming.class)
class OrdersFlowTest {

    static final int ORDER_TIMEOUT_SECONDS = 90;
    static final List<String> ORDER_1 = List.of("term-a", "term-b", "display");

    /** Order 2 (the lane computer) is sent only once every device of order 1 finished. */
    @Test
    void order2IsSentOnlyOnceEveryDeviceOfOrder1Finished() {
        Flow f = new Flow("fo-order-").withSetsAndType().system("lane-01", "c01").discovered(1);
        f.behave("lane-01", "term-b", Flow.Behaviour.silent());
        int d = f.deploy(f.manifest("2.0", "2"), "");

        tickUntil(3, "order 1 sent", () -> "ASSIGNED".equals(f.deviceState(d, "lane-01", "term-b")));
        tick(3);
        assertThat(f.deviceState(d, "lane-01", "term-a")).isEqualTo("SUCCEEDED");
        assertThat(f.deviceState(d, "lane-01", "lane")).as("order 2 waits for term-b").isEqualTo("WAITING");
        assertThat(f.assignedSets("lane-01", "lane")).isEmpty();

        f.report("lane-01", "term-b", Outcome.SUCCESS);
        tickUntil(5, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(run(d, "lane-01", "state")).isEqualTo("SUCCEEDED");
        assertThat(f.assignedSets("lane-01", "lane")).containsExactly("app:2");
        for (String role : ORDER_1) {
            assertThat(f.assignedSets("lane-01", role)).as(role).hasSize(1);
        }
        assertThat(f.installed("lane-01", "lane")).isEqualTo("app:2");
        assertThat(f.installed("lane-01", "display")).isEqualTo("disp:2");
    }

    /** The lane computer fails app:2 at order 2: the whole system goes back, order 1's devices too. */
    @Test
    void aDeviceThatFailsSendsTheWholeSystemBack() {
        Flow f = new Flow("fo-back-").withSetsAndType().system("lane-01", "c01").discovered(1);
        f.behave("lane-01", "lane", Flow.Behaviour.failFor(f.prefix + "app:2"));
        int d = f.deploy(f.manifest("2.0", "2"), "\"maxFailed\": 1");

        tickUntil(15, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(run(d, "lane-01", "state")).isEqualTo("ROLLED_BACK");
        assertThat(run(d, "lane-01", "reason"))
                .isEqualTo("1 device(s) failed at order 2 -- rolled back: 4 of 4 devices on their previous set again");
        for (String role : ORDER_1) {
            String set = role.startsWith("term") ? "term" : "disp";
            assertThat(f.installed("lane-01", role)).as(role).isEqualTo(set + ":1");
            assertThat(f.assignedSets("lane-01", role)).as(role).containsExactly(set + ":2", set + ":1");
        }
        assertThat(f.installed("lane-01", "lane")).isEqualTo("app:1");
        assertThat(deployment(d).getString("summary")).isEqualTo("0 of 1 updated, 1 rolled back");
    }

    /**
     * Moved from EngineFaultsEndToEndTest: a device that never reports is named in the reason as timed out, not
     * counted as a device that failed.
     */
    @Test
    void aDeviceThatTimesOutIsNamedAsTimedOut() {
        Flow f = new Flow("fo-late-").withSetsAndType().system("lane-01", "c01").discovered(1);
        String late = f.id("lane-01", "term-a");
        f.behave("lane-01", "term-a", Flow.Behaviour.silent());
        int d = f.deploy(f.manifest("2.0", "2"), "\"maxFailed\": 1, \"orderTimeoutSeconds\": " + ORDER_TIMEOUT_SECONDS);
        tickUntil(3, "order 1 sent", () -> "ASSIGNED".equals(f.deviceState(d, "lane-01", "term-a")));

        // back, in time to go back with the others: the double decides an answer when it is asked, so the
        // assignment that times out stays silent and the one that sends term-a back is answered
        f.behave("lane-01", "term-a", Flow.Behaviour.succeed());
        watch(Duration.ofSeconds(ORDER_TIMEOUT_SECONDS + 10), Duration.ofSeconds(10));
        tickUntil(10, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(run(d, "lane-01", "state")).isEqualTo("ROLLED_BACK");
        assertThat(run(d, "lane-01", "reason")).isEqualTo("at order 1: " + late + " did not finish within "
                + ORDER_TIMEOUT_SECONDS + " s -- rolled back: 3 of 3 devices on their previous set again");
    }

    /**
     * Moved from EngineFaultsEndToEndTest: the order-2 set is deleted in hawkBit while order 1 is out. hawkBit refuses
     * it, the system goes back with hawkBit's reason, and the deployment goes on: the next system (no lane computer,
     * so it needs only sets that exist) is updated.
     */
    @Test
    void aRefusedAssignmentRollsTheSystemBackAndTheDeploymentGoesOn() {
        Flow f = new Flow("fo-refused-").withSetsAndType().system("lane-01", "c01")
                .systemOf("lane-02", "c01", "term-a", "term-b", "display").discovered(2);
        String lane = f.id("lane-01", "lane");
        f.behave("lane-01", "term-a", Flow.Behaviour.silent());
        int d = f.deploy(f.manifest("2.0", "2"), "\"maxParallel\": 1, \"maxFailed\": 1, \"orderTimeoutSeconds\": 30");
        tickUntil(3, "order 1 sent", () -> "ASSIGNED".equals(f.deviceState(d, "lane-01", "term-a")));

        f.hawkbit.deleteDistributionSet(f.set("app:2"));
        f.report("lane-01", "term-a", Outcome.SUCCESS);
        tickUntil(4, "lane-01 rolled back", () -> "ROLLED_BACK".equals(run(d, "lane-01", "state")));
        tickUntil(10, "finished", () -> "FINISHED".equals(state(d)));

        assertThat(deployment(d).getString("summary")).isEqualTo("1 of 2 updated, 1 rolled back");
        String refusal = "hawkBit refused " + f.prefix + "app:2 for " + lane + ": 404 ";
        assertThat(run(d, "lane-01", "reason")).startsWith("at order 2: " + refusal)
                .endsWith(" -- rolled back: 4 of 4 devices on their previous set again");
        assertThat(messages(d, "lane-01")).anySatisfy(m -> assertThat(m).startsWith(refusal));
        assertThat(run(d, "lane-02", "state")).isEqualTo("SUCCEEDED");
        for (String role : ORDER_1) {
            String set = role.startsWith("term") ? "term" : "disp";
            assertThat(f.installed("lane-01", role)).as(role).isEqualTo(set + ":1");
            assertThat(f.installed("lane-02", role)).as(role).isEqualTo(set + ":2");
        }
        assertThat(f.installed("lane-01", "lane")).isEqualTo("app:1");
        assertThat(f.assignedSets("lane-01", "lane")).as("the deleted set never reached the lane computer")
                .doesNotContain("app:2");
    }
}
