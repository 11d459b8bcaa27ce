package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.plan.RunPlanner.Decision;
import io.qawk.orchestrator.deployment.plan.PlanInput.Checks;
import io.qawk.orchestrator.deployment.plan.PlanInput.Device;
import io.qawk.orchestrator.deployment.plan.PlanInput.Observed;
import io.qawk.orchestrator.deployment.plan.PlanInput.Photo;
import io.qawk.orchestrator.deployment.plan.PlanInput.Progress;
import io.qawk.orchestrator.deployment.plan.PlanInput.Settings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.qawk.orchestrator.deployment.model.DeviceState.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * hawkBit refusing a set is an observation the planner turns into failures: forward the device fails with the refusal
 * as its failure, back it fails to go back; the run stays where it is, and its next plan sends the system back.
 */
class RunPlannerRefusalTest {

    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    private static Device device(String id, int order, DeviceState state) {
        return new Device(id, new Photo(order, 1L, 11), Progress.of(state), Checks.NONE);
    }

    private static PlanInput.Run run(RunState state, RollbackCause cause, List<Device> devices) {
        return new PlanInput.Run(state, 1, null, cause, null, null, null, devices);
    }

    @Test
    void aRefusedDeviceFailsItsStepAndTheTimelineSaysSo() {
        Decision d = RunPlanner.refused(run(RunState.RUNNING, null, List.of(device("a", 1, ASSIGNING),
                device("b", 1, ASSIGNING), device("c", 2, WAITING))),
                new RunPlanner.Refusal(Map.of("a", "app:2.0"), "404 distribution set not found"));
        assertThat(d.deviceChanges()).containsOnlyKeys("a");
        RunPlanner.DeviceChange a = d.deviceChanges().get("a");
        assertThat(a.state()).isEqualTo(FAILED);
        assertThat(a.failed()).isTrue();
        assertThat(a.detail()).isEqualTo("failed: hawkBit refused app:2.0: 404 distribution set not found");
        assertThat(a.failure()).isEqualTo("hawkBit refused app:2.0 for a: 404 distribution set not found");
        assertThat(d.state()).as("the run moves on its next plan").isEqualTo(RunState.RUNNING);
        assertThat(d.steps()).isEmpty();
        assertThat(d.assignments()).isEmpty();
        assertThat(d.events()).containsExactly(new TimelineEvent.AssignmentRefused("app:2.0", List.of("a"),
                "404 distribution set not found"));
    }

    @Test
    void aDeviceRefusedOnItsWayBackFailsToGoBack() {
        Decision d = RunPlanner.refused(run(RunState.ROLLING_BACK, RollbackCause.FAILURE,
                        List.of(device("a", 1, ROLLBACK_ASSIGNING), device("b", 1, ROLLED_BACK))),
                new RunPlanner.Refusal(Map.of("a", "app:1.0", "b", "app:1.0"), "409 distribution set is incomplete"));
        assertThat(d.deviceChanges()).containsOnlyKeys("a");
        assertThat(d.deviceChanges().get("a").state()).isEqualTo(ROLLBACK_FAILED);
        assertThat(d.deviceChanges().get("a").detail())
                .isEqualTo("failed to go back: hawkBit refused app:1.0: 409 distribution set is incomplete");
        assertThat(d.state()).isEqualTo(RunState.ROLLING_BACK);
        assertThat(d.rollbackCause()).isEqualTo(RollbackCause.FAILURE);
    }

    @Test
    void theNextPlanSendsTheSystemBackAsAfterAnyFailure() {
        Decision refused = RunPlanner.refused(run(RunState.RUNNING, null, List.of(device("a", 1, ASSIGNING))),
                new RunPlanner.Refusal(Map.of("a", "app:2.0"), "404 distribution set not found"));
        RunPlanner.DeviceChange a = refused.deviceChanges().get("a");
        Device failed = new Device("a", new Photo(1, 1L, 11),
                new Progress(a.state(), null, a.failed(), a.failure(), Duration.ZERO, null), Checks.NONE);
        Decision next = RunPlanner.plan(new PlanInput(run(RunState.RUNNING, null, List.of(failed)),
                Observed.NOTHING, Settings.orderTimeout(Duration.ofMinutes(30)), T0));
        assertThat(next.state()).isEqualTo(RunState.ROLLING_BACK);
        assertThat(next.rollbackCause()).isEqualTo(RollbackCause.FAILURE);
        assertThat(next.assignments()).containsExactly(new RunPlanner.Assign("a", 1L, true, 1));
    }
}
