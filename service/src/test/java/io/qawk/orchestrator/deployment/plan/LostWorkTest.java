package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.plan.LostWork.Action;
import io.qawk.orchestrator.deployment.plan.LostWork.Before;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A photograph is never taken from Qawk's own lost work: the "before" is read from the device's action history. */
class LostWorkTest {

    static final String QAWK = "qawk";
    static final Instant STARTED = Instant.parse("2026-12-07T10:00:00Z");
    static final Instant EARLIER = STARTED.minusSeconds(3600);
    static final Instant LATER = STARTED.plusSeconds(60);
    static final long APP1 = 11;
    static final long APP2 = 12;

    static Action finished(long id, String by, Instant at, long set) {
        return new Action(id, by, at, set, "finished", false);
    }

    @Test
    void aSetQawksUserSentSinceTheDeploymentStartedIsLostWorkAndTheBeforeIsTheSetFinishedBeforeIt() {
        List<Action> history = List.of(finished(7, QAWK, LATER, APP2), finished(3, "admin", EARLIER, APP1));

        assertThat(LostWork.before(history, APP2, QAWK, STARTED)).contains(new Before(7, APP1));
    }

    @Test
    void aDeviceOnTheSetBeforeTheDeploymentStartedStaysAlreadyOnIt() {
        List<Action> history = List.of(finished(3, QAWK, EARLIER, APP2), finished(1, QAWK, EARLIER.minusSeconds(60), APP1));

        assertThat(LostWork.before(history, APP2, QAWK, STARTED)).isEmpty();
    }

    @Test
    void anotherUsersActionSinceTheStartIsNotQawksLostWork() {
        List<Action> history = List.of(finished(7, "operator", LATER, APP2), finished(3, QAWK, EARLIER, APP1));

        assertThat(LostWork.before(history, APP2, QAWK, STARTED)).isEmpty();
    }

    @Test
    void qawksActionForAnotherSetIsNotTheDestinationsLostWork() {
        List<Action> history = List.of(finished(7, QAWK, LATER, APP1), finished(3, QAWK, EARLIER, APP2));

        assertThat(LostWork.before(history, APP2, QAWK, STARTED)).isEmpty();
    }

    @Test
    void theBeforeIsTheLastFinishedActionBeforeTheFirstLostOneNotAFailedOrCanceledOne() {
        List<Action> history = List.of(
                finished(9, QAWK, LATER.plusSeconds(60), APP2),
                new Action(8, QAWK, LATER, APP2, "error", false),
                new Action(6, "admin", EARLIER.plusSeconds(60), 99L, "canceled", false),
                new Action(5, "admin", EARLIER.plusSeconds(30), 98L, "running", true),
                finished(4, "admin", EARLIER, APP1));

        assertThat(LostWork.before(history, APP2, QAWK, STARTED)).contains(new Before(8, APP1));
    }

    @Test
    void aHistoryWithNothingFinishedBeforeSaysTheDeviceRanNothing() {
        List<Action> history = List.of(finished(2, QAWK, LATER, APP2));

        assertThat(LostWork.before(history, APP2, QAWK, STARTED)).contains(new Before(2, null));
    }

    @Test
    void anActionCreatedExactlyAtTheStartCountsAsTheDeployments() {
        Optional<Before> before = LostWork.before(List.of(finished(5, QAWK, STARTED, APP2),
                finished(4, QAWK, EARLIER, APP1)), APP2, QAWK, STARTED);

        assertThat(before).contains(new Before(5, APP1));
    }
}
