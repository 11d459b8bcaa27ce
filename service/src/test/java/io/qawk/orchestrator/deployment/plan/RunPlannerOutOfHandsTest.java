package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.observation.Outcome;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.qawk.orchestrator.deployment.model.DeviceState.*;
import static org.assertj.core.api.Assertions.assertThat;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunState;

/** Devices out of a run's hands: one that left its system, one given another set in hawkBit by someone else. */
class RunPlannerOutOfHandsTest {

    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    static final Duration TIMEOUT = Duration.ofMinutes(30);

    /** A lane whose order 1 is out: term-a still at it, term-b and the display finished; the lane computer waits. */
    private final Map<String, Device> devices = new LinkedHashMap<>(Map.of(
            "term-a", device("term-a", 1, 1L, 11, ASSIGNED, T0),
            "term-b", device("term-b", 1, 1L, 11, SUCCEEDED, T0),
            "display", device("display", 1, 1L, 12, SUCCEEDED, T0),
            "lane", device("lane", 2, 2L, 10, WAITING, null)));
    private RunState state = RunState.RUNNING;
    private RollbackCause cause;
    private Integer failedOrder;

    private static Device device(String id, int order, Long from, long to, DeviceState state, Instant assignedAt) {
        return new Device(id, new Photo(order, from, to),
                new Progress(state, assignedAt, false, null, Duration.ZERO, null), Checks.NONE);
    }

    private Decision plan(Map<String, Outcome> outcomes, Map<String, String> takenBy) {
        PlanInput.Run run = new PlanInput.Run(state, 1, failedOrder, cause, null, null, null,
                new ArrayList<>(devices.values()));
        Observed seen = new Observed(outcomes, takenBy, Map.of(), Map.of(), null);
        Decision d = RunPlanner.plan(new PlanInput(run, seen, Settings.orderTimeout(TIMEOUT), T0.plusSeconds(10)));
        d.deviceChanges().forEach((id, c) -> {
            Device old = devices.get(id);
            DeviceState s = c.state() == ROLLBACK_ASSIGNING ? ROLLBACK_ASSIGNED : c.state();
            devices.put(id, new Device(id, old.photo(), new Progress(s, old.assignedAt(), c.failed(),
                    c.failure() != null ? c.failure() : old.failure(), old.unobserved(), null), Checks.NONE));
        });
        state = d.state();
        cause = d.rollbackCause();
        failedOrder = d.failedOrder();
        return d;
    }

    /** Plans until the run ends, every device sent back reporting it is back. */
    private Decision finishRollback() {
        Decision d = null;
        for (int i = 0; i < 10 && !state.terminal(); i++) {
            Map<String, Outcome> back = new LinkedHashMap<>();
            devices.values().stream().filter(x -> x.state() == ROLLBACK_ASSIGNED)
                    .forEach(x -> back.put(x.controllerId(), Outcome.SUCCEEDED));
            d = plan(back, Map.of());
        }
        return d;
    }

    @Test
    void aDeviceThatLeftFailsTheRunWhichGoesBackWithoutIt() {
        Decision first = plan(Map.of("term-b", Outcome.LEFT), Map.of());
        assertThat(first.deviceChanges().get("term-b").state()).isEqualTo(LEFT_SYSTEM);
        assertThat(first.rollbackCause()).isEqualTo(RollbackCause.FAILURE);
        assertThat(first.assignments()).as("term-a is still at it: wait for it first").isEmpty();
        assertThat(first.state()).isEqualTo(RunState.RUNNING);

        Decision second = plan(Map.of("term-a", Outcome.SUCCEEDED), Map.of());
        assertThat(second.state()).isEqualTo(RunState.ROLLING_BACK);
        assertThat(second.assignments()).extracting(RunPlanner.Assign::controllerId)
                .containsExactlyInAnyOrder("term-a", "display");
        assertThat(devices.get("lane").state()).isEqualTo(NOT_SENT);

        Decision end = finishRollback();
        assertThat(end.state()).isEqualTo(RunState.ROLLED_BACK);
        assertThat(end.reason()).isEqualTo("at order 1: term-b left the system during the update -- rolled back: "
                + "2 of 2 devices on their previous set again");
        assertThat(devices.get("term-b").state()).isEqualTo(LEFT_SYSTEM);
    }

    @Test
    void aDeviceTakenOverIsNamedWithTheOtherSetAndLeftWithIt() {
        Decision first = plan(Map.of("term-a", Outcome.TAKEN_OVER), Map.of("term-a", "app:9.9"));
        assertThat(first.deviceChanges().get("term-a").state()).isEqualTo(TAKEN_OVER);
        assertThat(first.deviceChanges().get("term-a").detail()).isEqualTo("given app:9.9 in hawkBit by someone else");
        assertThat(first.state()).isEqualTo(RunState.ROLLING_BACK);
        assertThat(first.assignments()).extracting(RunPlanner.Assign::controllerId)
                .containsExactlyInAnyOrder("term-b", "display");

        Decision end = finishRollback();
        assertThat(end.reason()).isEqualTo("at order 1: term-a was given app:9.9 in hawkBit by someone else -- rolled back: "
                + "2 of 2 devices on their previous set again");
        assertThat(devices.get("term-a").state()).isEqualTo(TAKEN_OVER);
    }

    @Test
    void newsOfADeviceOutOfHandsIsNeverSkippedAsOnlyWaiting() {
        List<Device> list = new ArrayList<>(devices.values());
        assertThat(RunPlanner.onlyWaiting(list, Map.of(), T0.plusSeconds(10), TIMEOUT)).isTrue();
        assertThat(RunPlanner.onlyWaiting(list, Map.of("lane", Outcome.LEFT), T0.plusSeconds(10), TIMEOUT)).isFalse();
        assertThat(RunPlanner.onlyWaiting(list, Map.of("term-a", Outcome.TAKEN_OVER), T0.plusSeconds(10), TIMEOUT)).isFalse();
    }

    @Test
    void aDeviceThatLeftAfterTheRunEndedChangesNothing() {
        state = RunState.SUCCEEDED;
        Decision d = plan(Map.of("term-b", Outcome.LEFT), Map.of());
        assertThat(d.state()).isEqualTo(RunState.SUCCEEDED);
        assertThat(d.deviceChanges()).isEmpty();
    }
}
