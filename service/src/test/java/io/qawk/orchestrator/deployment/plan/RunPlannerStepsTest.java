package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.observation.Outcome;
import io.qawk.orchestrator.deployment.plan.RunPlanner.Decision;
import io.qawk.orchestrator.deployment.plan.PlanInput.Checks;
import io.qawk.orchestrator.deployment.plan.PlanInput.Device;
import io.qawk.orchestrator.deployment.plan.PlanInput.Observed;
import io.qawk.orchestrator.deployment.plan.PlanInput.Photo;
import io.qawk.orchestrator.deployment.plan.PlanInput.Progress;
import io.qawk.orchestrator.deployment.plan.PlanInput.Settings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.qawk.orchestrator.deployment.model.DeviceState.*;
import static org.assertj.core.api.Assertions.assertThat;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunState;

/**
 * The steps a decision takes, run and devices, which the store applies one by one through the guards: each chain
 * starts where the run (device) stood, every step is a move the guard allows, and the last is the decided state.
 */
class RunPlannerStepsTest {

    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    static final Duration TIMEOUT = Duration.ofMinutes(30);

    static Device dev(String id, int order, Long from, DeviceState state) {
        return new Device(id, new Photo(order, from, 10),
                new Progress(state, state.inFlight() ? T0 : null, state == FAILED, null, Duration.ZERO, null), Checks.NONE);
    }

    static Stream<Arguments> passes() {
        return Stream.of(
                Arguments.of("first pass sends order 1", RunState.RUNNING, null,
                        List.of(dev("a", 1, 1L, WAITING), dev("b", 2, 1L, WAITING)), Map.of(),
                        List.of(), Map.of("a", List.of(ASSIGNING))),
                Arguments.of("last device finishes: succeeded", RunState.RUNNING, null,
                        List.of(dev("a", 1, 1L, SUCCEEDED), dev("b", 2, 1L, ASSIGNED)), Map.of("b", Outcome.SUCCEEDED),
                        List.of(RunState.SUCCEEDED), Map.of("b", List.of(SUCCEEDED))),
                Arguments.of("already on its set: succeeded at once", RunState.RUNNING, null,
                        List.of(new Device("a", new Photo(1, 10L, 10), Progress.of(WAITING), Checks.NONE)), Map.of(),
                        List.of(RunState.SUCCEEDED), Map.of("a", List.of(ALREADY_ON_SET))),
                Arguments.of("a failure sends the others back in the same pass", RunState.RUNNING, null,
                        List.of(dev("a", 1, 1L, ASSIGNED), dev("b", 1, 1L, SUCCEEDED), dev("c", 2, 1L, WAITING)),
                        Map.of("a", Outcome.FAILED), List.of(RunState.ROLLING_BACK),
                        Map.of("a", List.of(FAILED, ROLLBACK_WAITING, ROLLBACK_ASSIGNING),
                                "b", List.of(ROLLBACK_WAITING, ROLLBACK_ASSIGNING), "c", List.of(NOT_SENT))),
                Arguments.of("nothing to send back: rolled back in one pass, two steps", RunState.RUNNING, null,
                        List.of(dev("a", 1, null, ASSIGNED), dev("b", 2, null, WAITING)), Map.of("a", Outcome.FAILED),
                        List.of(RunState.ROLLING_BACK, RunState.ROLLED_BACK),
                        Map.of("a", List.of(FAILED, LEFT_AS_IS), "b", List.of(NOT_SENT))),
                Arguments.of("rollback by hand of a succeeded run", RunState.SUCCEEDED, RollbackCause.MANUAL,
                        List.of(dev("a", 1, 1L, SUCCEEDED)), Map.of(), List.of(RunState.ROLLING_BACK),
                        Map.of("a", List.of(ROLLBACK_WAITING, ROLLBACK_ASSIGNING))),
                Arguments.of("the last device back: rolled back", RunState.ROLLING_BACK, RollbackCause.FAILURE,
                        List.of(dev("a", 1, 1L, ROLLBACK_ASSIGNED)), Map.of("a", Outcome.SUCCEEDED),
                        List.of(RunState.ROLLED_BACK), Map.of("a", List.of(ROLLED_BACK))),
                Arguments.of("a device fails to go back: rollback failed", RunState.ROLLING_BACK, RollbackCause.FAILURE,
                        List.of(dev("a", 1, 1L, ROLLBACK_ASSIGNED)), Map.of("a", Outcome.FAILED),
                        List.of(RunState.ROLLBACK_FAILED), Map.of("a", List.of(ROLLBACK_FAILED))),
                Arguments.of("a device leaves during the update", RunState.RUNNING, null,
                        List.of(dev("a", 1, 1L, SUCCEEDED), dev("b", 1, 1L, ALREADY_ON_SET)), Map.of("b", Outcome.LEFT),
                        List.of(RunState.ROLLING_BACK), Map.of("b", List.of(LEFT_SYSTEM),
                                "a", List.of(ROLLBACK_WAITING, ROLLBACK_ASSIGNING))),
                Arguments.of("still at it: nothing moves", RunState.RUNNING, null,
                        List.of(dev("a", 1, 1L, ASSIGNED)), Map.of(), List.of(), Map.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("passes")
    void everyStepGoesThroughTheGuard(String name, RunState state, RollbackCause cause, List<Device> devices,
                                      Map<String, Outcome> outcomes, List<RunState> runSteps,
                                      Map<String, List<DeviceState>> deviceSteps) {
        PlanInput.Run run = new PlanInput.Run(state, null, null, cause, null, null, null, new ArrayList<>(devices));
        Decision d = RunPlanner.plan(new PlanInput(run, Observed.outcomes(outcomes), Settings.orderTimeout(TIMEOUT),
                T0.plusSeconds(5)));
        assertThat(d.steps()).as(name).isEqualTo(runSteps);
        assertThat(d.state()).isEqualTo(runSteps.isEmpty() ? state : runSteps.get(runSteps.size() - 1));
        RunState at = state;
        for (RunState next : d.steps()) {
            at = at.to(next);
        }
        Map<String, List<DeviceState>> steps = new HashMap<>();
        d.deviceChanges().forEach((id, c) -> steps.put(id, c.steps()));
        assertThat(steps).as(name).isEqualTo(deviceSteps);
        for (Device dev : devices) {
            DeviceState s = dev.state();
            for (DeviceState next : steps.getOrDefault(dev.controllerId(), List.of())) {
                s = s.to(next);
            }
            RunPlanner.DeviceChange c = d.deviceChanges().get(dev.controllerId());
            assertThat(s).isEqualTo(c == null ? dev.state() : c.state());
        }
    }
}
