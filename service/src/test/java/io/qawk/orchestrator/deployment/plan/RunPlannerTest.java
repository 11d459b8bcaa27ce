package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.observation.Outcome;
import io.qawk.orchestrator.deployment.plan.RunPlanner.Assign;
import io.qawk.orchestrator.deployment.plan.RunPlanner.Decision;
import io.qawk.orchestrator.deployment.plan.PlanInput.Checks;
import io.qawk.orchestrator.deployment.plan.PlanInput.Device;
import io.qawk.orchestrator.deployment.plan.PlanInput.Observed;
import io.qawk.orchestrator.deployment.plan.PlanInput.Photo;
import io.qawk.orchestrator.deployment.plan.PlanInput.Progress;
import io.qawk.orchestrator.deployment.plan.PlanInput.Settings;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.qawk.orchestrator.deployment.model.DeviceState.*;
import static org.assertj.core.api.Assertions.assertThat;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunState;

/**
 * The lane of the product description: two terminals and a display at order 1, the lane computer at order 2.
 * Sets: 1 = old firmware, 2 = old app, 11 = new terminal firmware, 12 = new display firmware, 10 = new app.
 */
class RunPlannerTest {

    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    static final Duration TIMEOUT = Duration.ofMinutes(30);

    /** A run being built up for one test: devices by id, outcomes reported by hawkBit. */
    static final class Lane {
        final Map<String, Device> devices = new LinkedHashMap<>();
        final Map<String, Outcome> outcomes = new HashMap<>();
        RunState state = RunState.RUNNING;
        Integer currentOrder;
        Integer failedOrder;
        RollbackCause cause;
        String manualReason;
        Instant now = T0;

        static Lane standard() {
            Lane l = new Lane();
            l.device("term-a", 1, 1L, 11).device("term-b", 1, 1L, 11).device("display", 1, 1L, 12)
                    .device("lane", 2, 2L, 10);
            return l;
        }

        Lane device(String id, int order, Long from, long to) {
            devices.put(id, new Device(id, new Photo(order, from, to), Progress.of(WAITING), Checks.NONE));
            return this;
        }

        /** The run as stored, hawkBit's news, the order timeout, and the time. */
        PlanInput input() {
            PlanInput.Run run = new PlanInput.Run(state, currentOrder, failedOrder, cause, manualReason, null, null,
                    new ArrayList<>(devices.values()));
            return new PlanInput(run, Observed.outcomes(outcomes), Settings.orderTimeout(TIMEOUT), now);
        }

        Lane outcome(String id, Outcome o) {
            outcomes.put(id, o);
            return this;
        }

        Decision plan() {
            Decision d = RunPlanner.plan(input());
            // apply it, as the engine would: ASSIGNING devices are confirmed by hawkBit at 'now'
            d.deviceChanges().forEach((id, c) -> {
                Device old = devices.get(id);
                DeviceState s = c.state() == ASSIGNING ? ASSIGNED : c.state() == ROLLBACK_ASSIGNING ? ROLLBACK_ASSIGNED : c.state();
                Instant at = s == ASSIGNED || s == ROLLBACK_ASSIGNED ? now : old.assignedAt();
                boolean assigned = s == ASSIGNED || s == ROLLBACK_ASSIGNED;
                devices.put(id, new Device(id, old.photo(), new Progress(s, at, c.failed(),
                        c.failure() != null ? c.failure() : old.failure(), assigned ? Duration.ZERO : old.unobserved(),
                        null), Checks.NONE));
            });
            outcomes.clear();
            state = d.state();
            currentOrder = d.currentOrder();
            failedOrder = d.failedOrder();
            cause = d.rollbackCause();
            return d;
        }

        DeviceState stateOf(String id) {
            return devices.get(id).state();
        }
    }

    static List<String> targets(Decision d) {
        return d.assignments().stream().map(Assign::controllerId).toList();
    }

    @Nested
    class Forward {

        @Test
        void theFirstOrderGoesOutTogetherAndTheNextWaits() {
            Lane lane = Lane.standard();

            Decision d = lane.plan();

            assertThat(d.assignments()).containsExactlyInAnyOrder(
                    new Assign("term-a", 11, false, 1), new Assign("term-b", 11, false, 1),
                    new Assign("display", 12, false, 1));
            assertThat(d.state()).isEqualTo(RunState.RUNNING);
            assertThat(d.currentOrder()).isEqualTo(1);
            assertThat(lane.stateOf("lane")).isEqualTo(WAITING);
            assertThat(d.messages()).contains("order 1 sent to term-a, term-b, display");
        }

        @Test
        void nothingOfTheNextOrderIsSentWhileOneDeviceOfThisOrderIsStillAtIt() {
            Lane lane = Lane.standard();
            lane.plan();
            lane.outcome("term-a", Outcome.SUCCEEDED).outcome("display", Outcome.SUCCEEDED);

            Decision d = lane.plan();

            assertThat(d.assignments()).isEmpty();
            assertThat(lane.stateOf("term-a")).isEqualTo(SUCCEEDED);
            assertThat(lane.stateOf("term-b")).isEqualTo(ASSIGNED);
            assertThat(lane.stateOf("lane")).isEqualTo(WAITING);
        }

        @Test
        void whenEveryDeviceOfAnOrderFinishedTheNextOrderGoesOutInTheSamePass() {
            Lane lane = Lane.standard();
            lane.plan();
            lane.outcome("term-a", Outcome.SUCCEEDED).outcome("term-b", Outcome.SUCCEEDED)
                    .outcome("display", Outcome.SUCCEEDED);

            Decision d = lane.plan();

            assertThat(d.assignments()).containsExactly(new Assign("lane", 10, false, 2));
            assertThat(d.currentOrder()).isEqualTo(2);
        }

        @Test
        void theRunSucceedsWhenTheLastOrderFinished() {
            Lane lane = Lane.standard();
            lane.plan();
            lane.outcome("term-a", Outcome.SUCCEEDED).outcome("term-b", Outcome.SUCCEEDED)
                    .outcome("display", Outcome.SUCCEEDED);
            lane.plan();
            lane.outcome("lane", Outcome.SUCCEEDED);

            Decision d = lane.plan();

            assertThat(d.state()).isEqualTo(RunState.SUCCEEDED);
            assertThat(d.ended()).isTrue();
            assertThat(d.reason()).isEqualTo("every component is on its set");
        }

        @Test
        void devicesAlreadyOnTheirSetAreSkippedAndAnOrderOfOnlySuchDevicesIsPassedAtOnce() {
            Lane lane = new Lane().device("term-a", 1, 11L, 11).device("display", 1, 12L, 12).device("lane", 2, 2L, 10);

            Decision d = lane.plan();

            assertThat(d.assignments()).containsExactly(new Assign("lane", 10, false, 2));
            assertThat(lane.stateOf("term-a")).isEqualTo(ALREADY_ON_SET);
        }

        @Test
        void applyingAManifestASecondTimeAssignsNothing() {
            Lane lane = new Lane().device("term-a", 1, 11L, 11).device("lane", 2, 10L, 10);

            Decision d = lane.plan();

            assertThat(d.assignments()).isEmpty();
            assertThat(d.state()).isEqualTo(RunState.SUCCEEDED);
            assertThat(d.reason()).isEqualTo("every component is on its set (2 device(s) already were)");
        }

        @Test
        void aDeviceWithNoResultWithinTheTimeoutHasFailed() {
            Lane lane = new Lane().device("term-a", 1, 1L, 11);
            lane.plan();

            lane.now = T0.plus(TIMEOUT).minusSeconds(1);
            assertThat(lane.plan().deviceChanges()).isEmpty();

            lane.now = T0.plus(TIMEOUT);
            Decision d = lane.plan();
            assertThat(d.deviceChanges().get("term-a")).isNotNull();
            assertThat(lane.devices.get("term-a").failed()).isTrue();
            assertThat(d.messages()).anyMatch(e -> e.contains("no result within 30 min"));
        }

        @Test
        void timeHawkbitWasNotObservedDoesNotCountTowardTheTimeout() {
            Lane lane = new Lane().device("term-a", 1, 1L, 11);
            lane.plan();
            Device d = lane.devices.get("term-a");
            lane.devices.put("term-a", new Device("term-a", new Photo(1, 1L, 11),
                    new Progress(ASSIGNED, d.assignedAt(), false, null, Duration.ofSeconds(45), null), Checks.NONE));

            lane.now = T0.plus(TIMEOUT).plusSeconds(44);
            assertThat(RunPlanner.onlyWaiting(new ArrayList<>(lane.devices.values()), Map.of(), lane.now, TIMEOUT)).isTrue();
            assertThat(lane.plan().deviceChanges()).isEmpty();

            lane.now = T0.plus(TIMEOUT).plusSeconds(45);
            assertThat(RunPlanner.onlyWaiting(new ArrayList<>(lane.devices.values()), Map.of(), lane.now, TIMEOUT)).isFalse();
            lane.plan();
            assertThat(lane.devices.get("term-a").failed()).isTrue();
        }

        @Test
        void aTargetDeletedInHawkbitIsAFailureThatSaysSo() {
            Lane lane = new Lane().device("term-a", 1, 1L, 11);
            lane.plan();
            lane.outcome("term-a", Outcome.GONE);

            Decision d = lane.plan();

            assertThat(d.messages()).anyMatch(e -> e.contains("its target was deleted in hawkBit"));
            assertThat(d.state()).isEqualTo(RunState.ROLLING_BACK);
        }
    }

    @Nested
    class Rollback {

        private Lane laneComputerFails() {
            Lane lane = Lane.standard();
            lane.plan();
            lane.outcome("term-a", Outcome.SUCCEEDED).outcome("term-b", Outcome.SUCCEEDED)
                    .outcome("display", Outcome.SUCCEEDED);
            lane.plan();
            lane.outcome("lane", Outcome.FAILED);
            return lane;
        }

        @Test
        void aFailedDeviceSendsTheWholeSystemBackHighestOrderFirst() {
            Lane lane = laneComputerFails();

            Decision d = lane.plan();

            assertThat(d.state()).isEqualTo(RunState.ROLLING_BACK);
            assertThat(d.failedOrder()).isEqualTo(2);
            assertThat(d.assignments()).containsExactly(new Assign("lane", 2, true, 2));
            assertThat(lane.stateOf("term-a")).isEqualTo(ROLLBACK_WAITING);

            lane.outcome("lane", Outcome.SUCCEEDED);
            Decision second = lane.plan();
            assertThat(second.assignments()).containsExactlyInAnyOrder(
                    new Assign("term-a", 1, true, 1), new Assign("term-b", 1, true, 1), new Assign("display", 1, true, 1));

            lane.outcome("term-a", Outcome.SUCCEEDED).outcome("term-b", Outcome.SUCCEEDED)
                    .outcome("display", Outcome.SUCCEEDED);
            Decision last = lane.plan();
            assertThat(last.state()).isEqualTo(RunState.ROLLED_BACK);
            assertThat(last.reason()).isEqualTo("1 device(s) failed at order 2 -- rolled back: 4 of 4 devices on their previous set again");
        }

        @Test
        void theFailingOrderIsWaitedForBeforeAnythingGoesBack() {
            Lane lane = Lane.standard();
            lane.plan();
            lane.outcome("term-a", Outcome.FAILED);

            Decision d = lane.plan();

            assertThat(d.state()).isEqualTo(RunState.RUNNING);
            assertThat(d.assignments()).isEmpty();
            assertThat(lane.stateOf("term-a")).isEqualTo(FAILED);

            lane.outcome("term-b", Outcome.SUCCEEDED).outcome("display", Outcome.FAILED);
            Decision next = lane.plan();
            assertThat(next.state()).isEqualTo(RunState.ROLLING_BACK);
            assertThat(targets(next)).containsExactlyInAnyOrder("term-a", "term-b", "display");
            assertThat(lane.stateOf("lane")).isEqualTo(NOT_SENT);
        }

        @Test
        void theReasonReadsAsOperatorsWerePromised() {
            Lane lane = new Lane().device("a", 1, 1L, 11).device("b", 1, 1L, 11).device("c", 1, 1L, 11);
            lane.plan();
            lane.outcome("a", Outcome.FAILED).outcome("b", Outcome.FAILED).outcome("c", Outcome.FAILED);
            lane.plan();
            lane.outcome("a", Outcome.SUCCEEDED).outcome("b", Outcome.SUCCEEDED).outcome("c", Outcome.SUCCEEDED);

            Decision d = lane.plan();

            assertThat(d.reason()).isEqualTo("3 device(s) failed at order 1 -- rolled back: 3 of 3 devices on their previous set again");
        }

        @Test
        void aDeviceThatTimedOutIsNamedAsTimedOutApartFromDevicesThatReportedFailure() {
            Lane lane = new Lane().device("a", 1, 1L, 11).device("b", 1, 1L, 11).device("c", 1, 1L, 11);
            lane.plan();
            lane.outcome("a", Outcome.FAILED).outcome("b", Outcome.SUCCEEDED);
            lane.plan();
            lane.now = T0.plus(TIMEOUT);
            assertThat(lane.plan().state()).isEqualTo(RunState.ROLLING_BACK);
            lane.outcome("a", Outcome.SUCCEEDED).outcome("b", Outcome.SUCCEEDED).outcome("c", Outcome.SUCCEEDED);

            Decision d = lane.plan();

            assertThat(d.reason()).isEqualTo("at order 1: 1 device(s) failed; c did not finish within 30 min"
                    + " -- rolled back: 3 of 3 devices on their previous set again");
        }

        @Test
        void aDeviceHawkbitRefusedIsNamedWithHawkbitsReasonAndTheSystemGoesBack() {
            Lane lane = Lane.standard();
            lane.plan();
            lane.outcome("term-a", Outcome.SUCCEEDED).outcome("term-b", Outcome.SUCCEEDED)
                    .outcome("display", Outcome.SUCCEEDED);
            lane.plan();
            // the engine records hawkBit's refusal of the lane's set as the lane's failure
            String refusal = "hawkBit refused app:4.0 for lane: 404 distribution set not found";
            lane.devices.put("lane", new Device("lane", new Photo(2, 2L, 10),
                    new Progress(FAILED, null, true, refusal, Duration.ZERO, null), Checks.NONE));

            Decision back = lane.plan();
            assertThat(back.state()).isEqualTo(RunState.ROLLING_BACK);
            assertThat(back.failedOrder()).isEqualTo(2);
            assertThat(back.assignments()).containsExactly(new Assign("lane", 2, true, 2));
            lane.outcome("lane", Outcome.SUCCEEDED);
            lane.plan();
            lane.outcome("term-a", Outcome.SUCCEEDED).outcome("term-b", Outcome.SUCCEEDED)
                    .outcome("display", Outcome.SUCCEEDED);

            Decision d = lane.plan();

            assertThat(d.state()).isEqualTo(RunState.ROLLED_BACK);
            assertThat(d.reason()).isEqualTo("at order 2: " + refusal
                    + " -- rolled back: 4 of 4 devices on their previous set again");
        }

        @Test
        void devicesThatRanNothingBeforeAreLeftAsTheyAre() {
            Lane lane = new Lane().device("t1", 10, null, 11).device("t2", 10, null, 11).device("d", 10, null, 12)
                    .device("lane", 20, null, 10);
            lane.plan();
            lane.outcome("t1", Outcome.FAILED).outcome("t2", Outcome.SUCCEEDED).outcome("d", Outcome.SUCCEEDED);

            Decision d = lane.plan();

            assertThat(d.assignments()).isEmpty();
            assertThat(d.state()).isEqualTo(RunState.ROLLED_BACK);
            assertThat(d.reason()).isEqualTo("1 device(s) failed at order 10 -- rolled back: 0 of 0 devices on their "
                    + "previous set again, 3 ran nothing before and were left as they are");
        }

        @Test
        void aDeviceThatFailsToGoBackIsCalledOutByName() {
            Lane lane = new Lane().device("a", 1, 1L, 11).device("b", 1, 1L, 11);
            lane.plan();
            lane.outcome("a", Outcome.FAILED).outcome("b", Outcome.SUCCEEDED);
            lane.plan();
            lane.outcome("a", Outcome.SUCCEEDED).outcome("b", Outcome.FAILED);

            Decision d = lane.plan();

            assertThat(d.state()).isEqualTo(RunState.ROLLBACK_FAILED);
            assertThat(d.reason()).isEqualTo("1 device(s) failed at order 1 -- rolled back: 1 of 2 devices on their "
                    + "previous set again; FAILED TO GO BACK: b");
        }

        @Test
        void aSucceededRunRolledBackByHandGoesBackWithTheGivenReason() {
            Lane lane = new Lane().device("a", 1, 1L, 11).device("b", 2, null, 12);
            lane.plan();
            lane.outcome("a", Outcome.SUCCEEDED);
            lane.plan();
            lane.outcome("b", Outcome.SUCCEEDED);
            assertThat(lane.plan().state()).isEqualTo(RunState.SUCCEEDED);

            lane.cause = RollbackCause.MANUAL;
            lane.manualReason = "lane 7 is not scoring";
            Decision d = lane.plan();
            assertThat(d.assignments()).containsExactly(new Assign("a", 1, true, 1));
            lane.outcome("a", Outcome.SUCCEEDED);
            Decision last = lane.plan();

            assertThat(last.state()).isEqualTo(RunState.ROLLED_BACK);
            assertThat(last.reason()).isEqualTo("rolled back by hand (lane 7 is not scoring) -- rolled back: 1 of 1 "
                    + "devices on their previous set again, 1 ran nothing before and were left as they are");
        }

        @Test
        void aRunningRunRolledBackByHandWaitsForItsDevicesInFlight() {
            Lane lane = Lane.standard();
            lane.plan();
            lane.cause = RollbackCause.MANUAL;

            assertThat(lane.plan().assignments()).isEmpty();

            lane.outcome("term-a", Outcome.SUCCEEDED).outcome("term-b", Outcome.SUCCEEDED)
                    .outcome("display", Outcome.SUCCEEDED);
            Decision d = lane.plan();
            assertThat(d.state()).isEqualTo(RunState.ROLLING_BACK);
            assertThat(targets(d)).containsExactlyInAnyOrder("term-a", "term-b", "display");
            assertThat(lane.stateOf("lane")).isEqualTo(NOT_SENT);
        }

        @Test
        void aRollbackThatGetsNoAnswerWithinTheTimeoutFailsToGoBack() {
            Lane lane = new Lane().device("a", 1, 1L, 11);
            lane.plan();
            lane.outcome("a", Outcome.FAILED);
            lane.plan();
            lane.now = T0.plus(TIMEOUT);

            Decision d = lane.plan();

            assertThat(d.state()).isEqualTo(RunState.ROLLBACK_FAILED);
        }
    }

    /**
     * Going back mirrors going forward: the highest order first, and the next lower one only once every device of this
     * one finished going back, so the way back crosses only states the way forward did. A device that fails to go
     * back stops the way back there: the lower orders stay on their new sets (the state after them going forward).
     */
    @Nested
    class Mirrored {

        /** Three orders (firmware, display, app), the app fails: each order goes back alone, highest first. */
        private Lane threeOrdersAppFails() {
            Lane lane = new Lane().device("term-a", 1, 1L, 11).device("term-b", 1, 1L, 11).device("display", 2, 1L, 12)
                    .device("lane", 3, 2L, 10);
            lane.plan();
            lane.outcome("term-a", Outcome.SUCCEEDED).outcome("term-b", Outcome.SUCCEEDED);
            lane.plan();
            lane.outcome("display", Outcome.SUCCEEDED);
            lane.plan();
            lane.outcome("lane", Outcome.FAILED);
            return lane;
        }

        @Test
        void eachOrderGoesBackOnlyOnceEveryDeviceOfTheOrderAboveIsBack() {
            Lane lane = threeOrdersAppFails();

            Decision first = lane.plan();
            assertThat(first.assignments()).containsExactly(new Assign("lane", 2, true, 3));
            assertThat(first.messages()).contains("rollback of order 3 sent to lane");

            Decision stillAtIt = lane.plan(); // the lane computer is still going back: nothing lower moves
            assertThat(stillAtIt.assignments()).isEmpty();
            assertThat(lane.stateOf("display")).isEqualTo(ROLLBACK_WAITING);

            lane.outcome("lane", Outcome.SUCCEEDED);
            assertThat(lane.plan().assignments()).containsExactly(new Assign("display", 1, true, 2));
            assertThat(lane.stateOf("term-a")).isEqualTo(ROLLBACK_WAITING);

            lane.outcome("display", Outcome.SUCCEEDED);
            assertThat(lane.plan().assignments()).containsExactlyInAnyOrder(new Assign("term-a", 1, true, 1),
                    new Assign("term-b", 1, true, 1));

            lane.outcome("term-a", Outcome.SUCCEEDED);
            assertThat(lane.plan().assignments()).as("term-b still going back").isEmpty();
            lane.outcome("term-b", Outcome.SUCCEEDED);
            Decision last = lane.plan();
            assertThat(last.state()).isEqualTo(RunState.ROLLED_BACK);
            assertThat(last.reason()).isEqualTo("1 device(s) failed at order 3 -- rolled back: 4 of 4 devices on their "
                    + "previous set again");
        }

        @Test
        void anOrderWhoseDevicesAllWereOnTheirSetIsPassedOverGoingBack() {
            Lane lane = new Lane().device("term", 1, 1L, 11).device("display", 2, 12L, 12).device("lane", 3, 2L, 10);
            lane.plan();
            lane.outcome("term", Outcome.SUCCEEDED);
            lane.plan(); // order 2 already on its set: order 3 goes out in the same pass
            assertThat(lane.stateOf("display")).isEqualTo(ALREADY_ON_SET);
            lane.outcome("lane", Outcome.FAILED);
            assertThat(lane.plan().assignments()).containsExactly(new Assign("lane", 2, true, 3));

            lane.outcome("lane", Outcome.SUCCEEDED);
            Decision d = lane.plan();

            assertThat(d.assignments()).containsExactly(new Assign("term", 1, true, 1));
            assertThat(lane.stateOf("display")).isEqualTo(ALREADY_ON_SET);
        }

        @Test
        void aDeviceThatFailsToGoBackKeepsTheLowerOrdersOnTheirNewSets() {
            Lane lane = laneComputerFailsForward();
            assertThat(lane.plan().assignments()).containsExactly(new Assign("lane", 2, true, 2));
            lane.outcome("lane", Outcome.FAILED);

            Decision d = lane.plan();

            assertThat(d.assignments()).isEmpty();
            assertThat(d.state()).isEqualTo(RunState.ROLLBACK_FAILED);
            assertThat(List.of(lane.stateOf("term-a"), lane.stateOf("term-b"), lane.stateOf("display")))
                    .containsOnly(KEPT);
            assertThat(d.deviceChanges().get("term-a").steps()).containsExactly(KEPT);
            assertThat(d.reason()).isEqualTo("1 device(s) failed at order 2 -- rolled back: 0 of 1 devices on their "
                    + "previous set again; FAILED TO GO BACK: lane; order 1 not sent back: 3 device(s) kept on their new "
                    + "set, a state the update passed through");
        }

        @Test
        void aDeviceThatTimesOutGoingBackKeepsTheLowerOrdersToo() {
            Lane lane = laneComputerFailsForward();
            lane.plan();
            lane.now = T0.plus(TIMEOUT);

            Decision d = lane.plan();

            assertThat(d.state()).isEqualTo(RunState.ROLLBACK_FAILED);
            assertThat(d.assignments()).isEmpty();
            assertThat(lane.stateOf("term-a")).isEqualTo(KEPT);
        }

        @Test
        void theOrderThatFailedToGoBackIsWaitedForWholeBeforeTheWayBackStops() {
            Lane lane = new Lane().device("term", 1, 1L, 11).device("lane-a", 2, 2L, 10).device("lane-b", 2, 2L, 10);
            lane.plan();
            lane.outcome("term", Outcome.SUCCEEDED);
            lane.plan();
            lane.outcome("lane-a", Outcome.FAILED).outcome("lane-b", Outcome.SUCCEEDED);
            assertThat(targets(lane.plan())).containsExactlyInAnyOrder("lane-a", "lane-b");
            lane.outcome("lane-a", Outcome.FAILED);

            Decision waiting = lane.plan();
            assertThat(waiting.state()).isEqualTo(RunState.ROLLING_BACK);
            assertThat(lane.stateOf("term")).isEqualTo(ROLLBACK_WAITING);

            lane.outcome("lane-b", Outcome.SUCCEEDED);
            Decision d = lane.plan();
            assertThat(d.state()).isEqualTo(RunState.ROLLBACK_FAILED);
            assertThat(d.assignments()).isEmpty();
            assertThat(lane.stateOf("term")).isEqualTo(KEPT);
            assertThat(d.reason()).endsWith("FAILED TO GO BACK: lane-a; order 1 not sent back: 1 device(s) kept on "
                    + "their new set, a state the update passed through");
        }

        @Test
        void aDeviceThatFailsToGoBackAtTheLowestOrderKeepsNothing() {
            Lane lane = new Lane().device("term", 1, 1L, 11).device("lane", 2, 2L, 10);
            lane.plan();
            lane.outcome("term", Outcome.SUCCEEDED);
            lane.plan();
            lane.outcome("lane", Outcome.FAILED);
            lane.plan();
            lane.outcome("lane", Outcome.SUCCEEDED);
            assertThat(lane.plan().assignments()).containsExactly(new Assign("term", 1, true, 1));
            lane.outcome("term", Outcome.FAILED);

            Decision d = lane.plan();

            assertThat(d.state()).isEqualTo(RunState.ROLLBACK_FAILED);
            assertThat(d.reason()).isEqualTo("1 device(s) failed at order 2 -- rolled back: 1 of 2 devices on their "
                    + "previous set again; FAILED TO GO BACK: term");
        }

        @Test
        void aRollbackByHandOfAFinishedRunGoesBackMirroredToo() {
            Lane lane = Lane.standard();
            lane.plan();
            lane.outcome("term-a", Outcome.SUCCEEDED).outcome("term-b", Outcome.SUCCEEDED)
                    .outcome("display", Outcome.SUCCEEDED);
            lane.plan();
            lane.outcome("lane", Outcome.SUCCEEDED);
            assertThat(lane.plan().state()).isEqualTo(RunState.SUCCEEDED);
            lane.cause = RollbackCause.MANUAL;

            assertThat(lane.plan().assignments()).containsExactly(new Assign("lane", 2, true, 2));
            assertThat(lane.plan().assignments()).isEmpty();
            lane.outcome("lane", Outcome.SUCCEEDED);
            assertThat(targets(lane.plan())).containsExactlyInAnyOrder("term-a", "term-b", "display");
        }

        private Lane laneComputerFailsForward() {
            Lane lane = Lane.standard();
            lane.plan();
            lane.outcome("term-a", Outcome.SUCCEEDED).outcome("term-b", Outcome.SUCCEEDED)
                    .outcome("display", Outcome.SUCCEEDED);
            lane.plan();
            lane.outcome("lane", Outcome.FAILED);
            return lane;
        }
    }

    @Nested
    class Waiting {

        /** Whenever the engine may skip a run, planning it would indeed decide nothing. */
        private void assertSkippingIsSafe(Lane lane) {
            boolean waiting = RunPlanner.onlyWaiting(new ArrayList<>(lane.devices.values()), lane.outcomes, lane.now, TIMEOUT);
            if (waiting && lane.state.underWay()) {
                Decision d = RunPlanner.plan(lane.input());
                assertThat(d.deviceChanges()).isEmpty();
                assertThat(d.assignments()).isEmpty();
                assertThat(d.state()).isEqualTo(lane.state);
                assertThat(d.rollbackCause()).isEqualTo(lane.cause);
            }
        }

        @Test
        void aRunWithDevicesStillAtItAndNoNewsIsOnlyWaiting() {
            Lane lane = Lane.standard();
            lane.plan();
            assertThat(RunPlanner.onlyWaiting(new ArrayList<>(lane.devices.values()), Map.of(), T0, TIMEOUT)).isTrue();
            assertSkippingIsSafe(lane);

            lane.outcome("term-a", Outcome.SUCCEEDED);
            assertThat(RunPlanner.onlyWaiting(new ArrayList<>(lane.devices.values()), lane.outcomes, T0, TIMEOUT)).isFalse();
            lane.plan();
            assertSkippingIsSafe(lane);

            lane.outcome("term-b", Outcome.FAILED);
            lane.plan();
            assertThat(lane.cause).isEqualTo(RollbackCause.FAILURE);
            assertSkippingIsSafe(lane);

            lane.cause = RollbackCause.MANUAL;
            assertSkippingIsSafe(lane);
            lane.cause = RollbackCause.FAILURE;

            assertThat(RunPlanner.onlyWaiting(new ArrayList<>(lane.devices.values()), Map.of(), T0.plus(TIMEOUT), TIMEOUT))
                    .as("a timeout is news").isFalse();
            lane.outcome("display", Outcome.SUCCEEDED);
            lane.plan();
            assertThat(lane.state).isEqualTo(RunState.ROLLING_BACK);
            assertSkippingIsSafe(lane);
        }

        @Test
        void aRunWithNothingInFlightOrAnIntentIsNeverSkipped() {
            Lane lane = Lane.standard();
            assertThat(RunPlanner.onlyWaiting(new ArrayList<>(lane.devices.values()), Map.of(), T0, TIMEOUT)).isFalse();
            lane.devices.put("term-a", new Device("term-a", new Photo(1, 1L, 11), Progress.of(ASSIGNING), Checks.NONE));
            assertThat(RunPlanner.onlyWaiting(new ArrayList<>(lane.devices.values()), Map.of(), T0, TIMEOUT)).isFalse();
        }
    }
}
