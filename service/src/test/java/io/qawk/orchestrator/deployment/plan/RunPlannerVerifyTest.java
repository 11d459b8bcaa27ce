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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
 * Issue 15 in the planner: hawkBit's "finished" is necessary, no longer sufficient. A device whose component names a
 * verification query waits (VERIFYING) until it matches it, and fails when it does not within the verify timeout;
 * the next order waits for it. After the last order a run with a soak reads VERIFYING until the soak is over with
 * the system healthy, and goes back as a whole the moment it is not.
 * The lane: two terminals and a display at order 1 (sets 1 → 11, 12), the lane computer at order 2 (2 → 10).
 */
class RunPlannerVerifyTest {

    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    static final Duration ORDER_TIMEOUT = Duration.ofMinutes(30);
    static final Duration VERIFY_TIMEOUT = Duration.ofMinutes(5);
    static final String APP = "attribute.app_version==2.0";
    static final String TERM = "attribute.term_version==11";
    static final String SCORING = "attribute.lane_state==scoring";

    /** A run as the engine would keep it between passes: the decisions applied, hawkBit taking every assignment. */
    static final class Lane {
        final Map<String, Device> devices = new LinkedHashMap<>();
        final Map<String, Outcome> outcomes = new HashMap<>();
        final Map<String, Boolean> verified = new HashMap<>();
        final Map<String, String> reports = new HashMap<>();
        RunState state = RunState.RUNNING;
        Integer currentOrder;
        Integer failedOrder;
        RollbackCause cause;
        String rollbackReason;
        Instant soakStartedAt;
        Instant soakEndsAt;
        Duration soak = Duration.ZERO;
        Health health;
        Instant now = T0;

        static Lane standard(String laneVerify, String termVerify) {
            Lane l = new Lane();
            l.device("term-a", 1, 1L, 11, termVerify).device("term-b", 1, 1L, 11, termVerify)
                    .device("display", 1, 1L, 12, null).device("lane", 2, 2L, 10, laneVerify);
            return l;
        }

        Lane device(String id, int order, Long from, long to, String verify) {
            devices.put(id, new Device(id, new Photo(order, from, to), Progress.of(WAITING), new Checks(verify, null)));
            return this;
        }

        Lane finished(String... ids) {
            for (String id : ids) {
                outcomes.put(id, Outcome.SUCCEEDED);
            }
            return this;
        }

        Lane at(Duration later) {
            now = T0.plus(later);
            return this;
        }

        Decision plan() {
            PlanInput.Run run = new PlanInput.Run(state, currentOrder, failedOrder, cause, rollbackReason,
                    soakStartedAt, soakEndsAt, new ArrayList<>(devices.values()));
            Observed seen = new Observed(outcomes, Map.of(), Map.copyOf(verified), Map.copyOf(reports), health);
            Decision d = RunPlanner.plan(new PlanInput(run, seen,
                    new Settings(ORDER_TIMEOUT, VERIFY_TIMEOUT, soak), now));
            d.deviceChanges().forEach((id, c) -> {
                Device old = devices.get(id);
                DeviceState s = c.state() == ASSIGNING ? ASSIGNED : c.state() == ROLLBACK_ASSIGNING ? ROLLBACK_ASSIGNED
                        : c.state();
                boolean assigned = s == ASSIGNED || s == ROLLBACK_ASSIGNED;
                devices.put(id, new Device(id, old.photo(), new Progress(s, assigned ? now : old.assignedAt(),
                        c.failed(), c.failure() != null ? c.failure() : old.failure(),
                        assigned ? Duration.ZERO : old.unobserved(), s == VERIFYING ? now : old.verifyingSince()),
                        old.checks()));
            });
            outcomes.clear();
            verified.clear();
            reports.clear();
            state = d.state();
            currentOrder = d.currentOrder();
            failedOrder = d.failedOrder();
            cause = d.rollbackCause();
            rollbackReason = d.rollbackReason();
            if (d.soakStartedAt() != null && soakStartedAt == null) {
                soakStartedAt = d.soakStartedAt();
                soakEndsAt = d.soakEndsAt();
            }
            return d;
        }

        /** Order 1 sent and finished (and verified, where asked): the lane computer has been sent its set. */
        void throughOrderOne() {
            plan();
            devices.keySet().forEach(id -> verified.put(id, true));
            finished("term-a", "term-b", "display");
            plan();
        }

        /** Runs the whole forward update to its end, every device finishing (and verifying) at once. */
        Decision throughEveryOrder() {
            plan();
            devices.keySet().forEach(id -> verified.put(id, true));
            finished("term-a", "term-b", "display");
            plan();
            devices.keySet().forEach(id -> verified.put(id, true));
            finished("lane");
            return plan();
        }

        DeviceState stateOf(String id) {
            return devices.get(id).state();
        }

        void unobserved(String id, Duration d) {
            Device o = devices.get(id);
            devices.put(id, new Device(id, o.photo(), new Progress(o.state(), o.assignedAt(), o.failed(), o.failure(), d,
                    o.verifyingSince()), o.checks()));
        }
    }

    static List<String> targets(Decision d) {
        return d.assignments().stream().map(Assign::controllerId).toList();
    }

    // ------------------------------------------------------------------------------------------ verification

    @Test
    void aDeviceThatFinishedButHasNotReportedWaitsAndTheNextOrderWaitsWithIt() {
        Lane lane = Lane.standard(APP, TERM);
        lane.plan();
        lane.finished("term-a", "term-b", "display");
        lane.verified.put("term-a", true);
        lane.verified.put("term-b", false);

        Decision d = lane.plan();

        assertThat(lane.stateOf("term-a")).isEqualTo(SUCCEEDED);
        assertThat(lane.stateOf("term-b")).isEqualTo(VERIFYING);
        assertThat(lane.stateOf("display")).as("no query: finished is done").isEqualTo(SUCCEEDED);
        assertThat(lane.stateOf("lane")).isEqualTo(WAITING);
        assertThat(d.assignments()).isEmpty();
        assertThat(d.deviceChanges().get("term-a").steps()).containsExactly(VERIFYING, SUCCEEDED);
        assertThat(d.deviceChanges().get("term-b").detail()).isEqualTo("installed; waiting for it to report " + TERM);
        assertThat(d.messages()).contains("device term-a finished", "device term-a reports " + TERM,
                "device term-b finished");

        lane.at(Duration.ofMinutes(1)).verified.put("term-b", true);
        Decision next = lane.plan();

        assertThat(lane.stateOf("term-b")).isEqualTo(SUCCEEDED);
        assertThat(next.assignments()).as("verified: the lane computer goes in the same pass")
                .containsExactly(new Assign("lane", 10, false, 2));
    }

    /** One device waiting to verify at the given moment: what the pass makes of it. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            matches at once                                  | true  | 0   | 0   | SUCCEEDED
            matches just before its timeout                  | true  | 299 | 0   | SUCCEEDED
            does not match yet                               | false | 299 | 0   | VERIFYING
            does not match when its timeout runs out         | false | 300 | 0   | FAILED
            matches at the timeout: it is done, not failed   | true  | 300 | 0   | SUCCEEDED
            not asked (hawkBit away) long after the timeout  |       | 900 | 0   | VERIFYING
            time not observed does not count toward it       | false | 400 | 120 | VERIFYING
            not observed for less than it was late           | false | 500 | 120 | FAILED
            """)
    void aDeviceWaitingToVerify(String why, Boolean matches, int secondsLater, int unobservedSeconds, DeviceState after) {
        Lane lane = Lane.standard(APP, null);
        lane.throughOrderOne();
        lane.finished("lane");
        lane.plan(); // the lane computer finished; it waits to verify from T0
        assertThat(lane.stateOf("lane")).isEqualTo(VERIFYING);
        lane.unobserved("lane", Duration.ofSeconds(unobservedSeconds));
        if (matches != null) {
            lane.verified.put("lane", matches);
        }
        lane.reports.put("lane", "reports 1.9");

        Decision d = lane.at(Duration.ofSeconds(secondsLater)).plan();

        if (after == FAILED) { // and on its way back at once: nothing else is in flight
            assertThat(d.deviceChanges().get("lane").steps()).as(why).startsWith(FAILED);
            assertThat(d.state()).isEqualTo(RunState.ROLLING_BACK);
        } else {
            assertThat(lane.stateOf("lane")).as(why).isEqualTo(after);
            assertThat(d.state()).isEqualTo(after == SUCCEEDED ? RunState.SUCCEEDED : RunState.RUNNING);
        }
    }

    @Test
    void aDeviceThatNeverReportsTheNewVersionFailsAndTheWholeSystemGoesBackSayingWhatItReports() {
        Lane lane = Lane.standard(APP, null);
        lane.throughOrderOne();
        lane.finished("lane");
        lane.plan();
        lane.verified.put("lane", false);
        lane.reports.put("lane", "reports 1.9");

        Decision d = lane.at(VERIFY_TIMEOUT).plan();

        assertThat(d.state()).isEqualTo(RunState.ROLLING_BACK);
        assertThat(d.failedOrder()).isEqualTo(2);
        assertThat(d.deviceChanges().get("lane").steps()).containsExactly(FAILED, ROLLBACK_WAITING, ROLLBACK_ASSIGNING);
        assertThat(d.deviceChanges().get("lane").failure()).isEqualTo("lane finished but does not report " + APP
                + " (reports 1.9)");
        assertThat(d.messages()).contains("device lane failed: it finished but does not report " + APP
                + " within 5 min (reports 1.9)");
        assertThat(targets(d)).containsExactly("lane");

        lane.finished("lane");
        lane.plan();
        lane.finished("term-a", "term-b", "display");
        Decision end = lane.plan();
        assertThat(end.state()).isEqualTo(RunState.ROLLED_BACK);
        assertThat(end.reason()).isEqualTo("at order 2: lane finished but does not report " + APP
                + " (reports 1.9) -- rolled back: 4 of 4 devices on their previous set again");
    }

    @Test
    void whenAnotherDeviceFailsTheOneStillVerifyingIsNotWaitedForAndGoesBackToo() {
        Lane lane = Lane.standard(null, TERM);
        lane.plan();
        lane.finished("term-a", "display");
        lane.outcomes.put("term-b", Outcome.FAILED);
        lane.verified.put("term-a", false);

        Decision d = lane.plan();

        assertThat(d.state()).isEqualTo(RunState.ROLLING_BACK);
        assertThat(d.deviceChanges().get("term-a").steps()).containsExactly(VERIFYING, ROLLBACK_WAITING,
                ROLLBACK_ASSIGNING);
        assertThat(targets(d)).containsExactlyInAnyOrder("term-a", "term-b", "display");
    }

    @Test
    void aDeviceAlreadyOnItsSetIsNotAskedToVerify() {
        Lane lane = new Lane();
        lane.device("term-a", 1, 11L, 11, TERM).device("lane", 2, 2L, 10, null);

        Decision d = lane.plan();

        assertThat(lane.stateOf("term-a")).isEqualTo(ALREADY_ON_SET);
        assertThat(d.assignments()).containsExactly(new Assign("lane", 10, false, 2));
    }

    @Test
    void aRunWithADeviceWaitingToVerifyIsNeverSkippedAsOnlyWaiting() {
        Lane lane = Lane.standard(APP, null);
        lane.throughOrderOne();
        lane.finished("lane");
        lane.plan();

        assertThat(RunPlanner.onlyWaiting(new ArrayList<>(lane.devices.values()), Map.of(), T0, ORDER_TIMEOUT)).isFalse();
    }

    // ------------------------------------------------------------------------------------------ the soak

    @Test
    void withoutASoakTheRunSucceedsWhenTheLastOrderIsDoneAsBefore() {
        Lane lane = Lane.standard(null, null);

        Decision d = lane.throughEveryOrder();

        assertThat(d.state()).isEqualTo(RunState.SUCCEEDED);
        assertThat(d.soakStartedAt()).isNull();
        assertThat(d.reason()).isEqualTo("every component is on its set");
    }

    @Test
    void withASoakTheRunReadsVerifyingAfterItsLastOrderUntilTheSoakIsOverWithTheSystemHealthy() {
        Lane lane = Lane.standard(null, null);
        lane.soak = Duration.ofMinutes(10);

        Decision d = lane.throughEveryOrder();

        assertThat(d.state()).isEqualTo(RunState.VERIFYING);
        assertThat(d.steps()).containsExactly(RunState.VERIFYING);
        assertThat(d.soakStartedAt()).isEqualTo(T0);
        assertThat(d.soakEndsAt()).isEqualTo(T0.plus(Duration.ofMinutes(10)));
        assertThat(d.reason()).isEqualTo("every component is on its set; verifying: the system must stay healthy until"
                + " 10:10:00 UTC");
        assertThat(d.messages()).contains("every component is on its set; verifying for 10 min, until 10:10:00 UTC:"
                + " every device must keep reporting its health query");

        lane.health = Health.HEALTHY;
        Decision before = lane.at(Duration.ofMinutes(10).minusSeconds(1)).plan();
        assertThat(before.state()).as("healthy, but the soak is not over").isEqualTo(RunState.VERIFYING);
        assertThat(before.steps()).isEmpty();
        assertThat(before.events()).isEmpty();

        Decision end = lane.at(Duration.ofMinutes(10)).plan();
        assertThat(end.state()).isEqualTo(RunState.SUCCEEDED);
        assertThat(end.reason()).isEqualTo("every component is on its set and the system stayed healthy for 10 min"
                + " after the update");
    }

    /** A soaking run at a moment of its soak, with this pass's verdict. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            healthy before the end                 | HEALTHY   | 599 | VERIFYING
            healthy at the end                     | HEALTHY   | 600 | SUCCEEDED
            healthy long after the end             | HEALTHY   | 900 | SUCCEEDED
            not known at the end: it cannot end    | UNKNOWN   | 900 | VERIFYING
            unhealthy at once                      | UNHEALTHY | 1   | ROLLING_BACK
            unhealthy at the very end              | UNHEALTHY | 600 | ROLLING_BACK
            """)
    void aSoakingRun(String why, Health.Verdict verdict, int secondsIntoTheSoak, RunState after) {
        Lane lane = Lane.standard(null, null);
        lane.soak = Duration.ofMinutes(10);
        lane.throughEveryOrder();
        lane.health = switch (verdict) {
            case HEALTHY -> Health.HEALTHY;
            case UNKNOWN -> Health.unknown("the gate did not answer");
            case UNHEALTHY -> Health.unhealthy("lane stopped reporting " + SCORING, List.of("lane"));
        };

        Decision d = lane.at(Duration.ofSeconds(secondsIntoTheSoak)).plan();

        assertThat(d.state()).as(why).isEqualTo(after);
    }

    @Test
    void aSoakOverWhoseVerdictIsNotKnownSaysWhyItHasNotEndedAndEndsOnceItIsKnownHealthy() {
        Lane lane = Lane.standard(null, null);
        lane.soak = Duration.ofMinutes(10);
        lane.throughEveryOrder();
        lane.health = Health.unknown("metric gate inconclusive: Prometheus cannot be reached (connection refused)");

        Decision during = lane.at(Duration.ofMinutes(5)).plan();
        assertThat(during.state()).isEqualTo(RunState.VERIFYING);
        assertThat(during.reason()).as("before its end the soak is still running: its reason stays").isNull();

        Decision over = lane.at(Duration.ofMinutes(11)).plan();
        assertThat(over.state()).isEqualTo(RunState.VERIFYING);
        assertThat(over.reason()).isEqualTo("every component is on its set; the soak is over, waiting to know the"
                + " system is healthy: metric gate inconclusive: Prometheus cannot be reached (connection refused)");

        lane.health = Health.HEALTHY;
        Decision end = lane.at(Duration.ofMinutes(12)).plan();
        assertThat(end.state()).isEqualTo(RunState.SUCCEEDED);
    }

    @Test
    void anUnhealthySystemGoesBackAsAWholeSayingWhichDeviceAndHowLongAfterTheUpdate() {
        Lane lane = Lane.standard(null, null);
        lane.soak = Duration.ofMinutes(10);
        lane.throughEveryOrder();
        lane.health = Health.unhealthy("lane stopped reporting " + SCORING, List.of("lane"));

        Decision d = lane.at(Duration.ofSeconds(200)).plan();

        assertThat(d.state()).isEqualTo(RunState.ROLLING_BACK);
        assertThat(d.steps()).containsExactly(RunState.ROLLING_BACK);
        assertThat(d.rollbackCause()).as("counts against maxFailed").isEqualTo(RollbackCause.FAILURE);
        assertThat(d.failedOrder()).as("no order failed: the system did").isNull();
        assertThat(d.rollbackReason()).isEqualTo("lane stopped reporting " + SCORING + " 3 min after the update");
        assertThat(d.messages()).containsSubsequence("lane stopped reporting " + SCORING + " 3 min after the update",
                "unhealthy during the soak: the whole system goes back", "rollback of order 2 sent to lane");
        assertThat(d.deviceChanges().get("lane").detail()).isEqualTo("unhealthy during the soak");
        assertThat(d.deviceChanges().get("term-a").steps()).containsExactly(ROLLBACK_WAITING);

        lane.health = null;
        lane.finished("lane");
        lane.plan();
        lane.finished("term-a", "term-b", "display");
        Decision end = lane.plan();
        assertThat(end.state()).isEqualTo(RunState.ROLLED_BACK);
        assertThat(end.reason()).isEqualTo("lane stopped reporting " + SCORING + " 3 min after the update -- rolled back:"
                + " 4 of 4 devices on their previous set again");
    }

    @Test
    void aSystemThatWasAlreadyOnEverySetDoesNotSoak() {
        Lane lane = new Lane();
        lane.soak = Duration.ofMinutes(10);
        lane.device("term-a", 1, 11L, 11, null).device("lane", 2, 10L, 10, null);

        Decision d = lane.plan();

        assertThat(d.state()).isEqualTo(RunState.SUCCEEDED);
        assertThat(d.soakStartedAt()).isNull();
    }

    @Test
    void aRollbackByHandDuringTheSoakSendsTheSystemBack() {
        Lane lane = Lane.standard(null, null);
        lane.soak = Duration.ofMinutes(10);
        lane.throughEveryOrder();
        lane.cause = RollbackCause.MANUAL;
        lane.rollbackReason = "lane 7 is not scoring";
        lane.health = Health.HEALTHY;

        Decision d = lane.at(Duration.ofMinutes(11)).plan();

        assertThat(d.state()).isEqualTo(RunState.ROLLING_BACK);
        assertThat(d.messages()).contains("rollback by hand: lane 7 is not scoring");
    }

    @Test
    void aDeviceThatLeavesItsSystemDuringTheSoakFailsIt() {
        Lane lane = Lane.standard(null, null);
        lane.soak = Duration.ofMinutes(10);
        lane.throughEveryOrder();
        lane.health = Health.HEALTHY;
        lane.outcomes.put("term-b", Outcome.LEFT);

        Decision d = lane.at(Duration.ofMinutes(1)).plan();

        assertThat(d.state()).isEqualTo(RunState.ROLLING_BACK);
        assertThat(lane.stateOf("term-b")).isEqualTo(LEFT_SYSTEM);
        assertThat(targets(d)).as("the rest of the system, the highest order first").containsExactly("lane");
    }
}
