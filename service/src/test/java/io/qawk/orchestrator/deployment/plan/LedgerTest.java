package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunState;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The ledger is hawkBit's: a run's records checked against hawkBit's actions, and what adopting them makes of it. */
class LedgerTest {

    static final String QAWK = "qawk";
    static final long OLD_TERM = 11;
    static final long NEW_TERM = 12;
    static final long OLD_APP = 21;
    static final long NEW_APP = 22;

    static Ledger.Recorded term(DeviceState state, Long actionId) {
        return new Ledger.Recorded("term", state, actionId, OLD_TERM, "term 1.0", NEW_TERM, "term 2.0");
    }

    static Ledger.Recorded lane(DeviceState state, Long actionId) {
        return new Ledger.Recorded("lane", state, actionId, OLD_APP, "app 1.0", NEW_APP, "app 2.0");
    }

    static Ledger.Action done(long id, String by, long set) {
        return new Ledger.Action(id, by, set, "finished", false);
    }

    @Test
    void recordsThatNameEveryActionAgree() {
        Ledger.Verdict v = Ledger.check(List.of(term(DeviceState.ASSIGNED, 100L), lane(DeviceState.WAITING, null)),
                Map.of("term", List.of(new Ledger.Action(100, QAWK, NEW_TERM, "running", true))), QAWK);
        assertThat(v.agrees()).isTrue();
    }

    @Test
    void anActionOfQawksUserNoRecordNamesIsSentButNotRecorded() {
        Ledger.Verdict v = Ledger.check(List.of(term(DeviceState.ASSIGNED, 100L), lane(DeviceState.WAITING, null)),
                Map.of("term", List.of(done(100, QAWK, NEW_TERM)), "lane", List.of(done(104, QAWK, NEW_APP))), QAWK);
        assertThat(v.findings()).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Ledger.Kind.SENT_NOT_RECORDED);
            assertThat(f.controllerId()).isEqualTo("lane");
            assertThat(f.actionIds()).containsExactly(104L);
        });
        assertThat(v.words()).isEqualTo("records behind hawkBit: lane: action 104 sent by Qawk's user, in no record"
                + " (recorded WAITING); hawkBit shows app 2.0 finished");
    }

    @Test
    void aSystemRolledBackSinceItsRecordSaysSoWithEveryAction() {
        Ledger.Verdict v = Ledger.check(List.of(term(DeviceState.ASSIGNED, 100L), lane(DeviceState.WAITING, null)),
                Map.of("term", List.of(done(100, QAWK, NEW_TERM), done(107, QAWK, OLD_TERM)),
                        "lane", List.of(new Ledger.Action(104, QAWK, NEW_APP, "error", false), done(105, QAWK, OLD_APP))),
                QAWK);
        assertThat(v.actionIds()).containsExactly(104L, 105L, 107L);
        assertThat(v.words()).contains("term: action 107 sent by Qawk's user, in no record (recorded ASSIGNED with"
                + " action 100); hawkBit shows term 1.0 finished");
    }

    @Test
    void anActionOfSomeoneElseAfterTheRecordReplacedIt() {
        Ledger.Verdict v = Ledger.check(List.of(term(DeviceState.SUCCEEDED, 100L)),
                Map.of("term", List.of(done(100, QAWK, NEW_TERM), done(130, "alice", 99))), QAWK);
        assertThat(v.findings()).singleElement().satisfies(f -> assertThat(f.kind()).isEqualTo(Ledger.Kind.REPLACED));
        assertThat(v.words()).contains("replaced by action 130 by alice").contains("hawkBit shows set 99 finished");
    }

    @Test
    void actionsOlderThanTheRunAndUnconfirmedIntentsAreNotItsConcern() {
        // 90: a past update by the same user, before the run's first recorded action; the lane's intent is recovered
        Ledger.Verdict v = Ledger.check(List.of(term(DeviceState.ASSIGNED, 100L), lane(DeviceState.ASSIGNING, null)),
                Map.of("term", List.of(done(90, QAWK, OLD_TERM), new Ledger.Action(100, QAWK, NEW_TERM, "running", true)),
                        "lane", List.of(new Ledger.Action(104, QAWK, NEW_APP, "running", true))), QAWK);
        assertThat(v.agrees()).isTrue();
        // recorded as taken over: the record already says a later action is someone else's
        assertThat(Ledger.check(List.of(term(DeviceState.TAKEN_OVER, 100L)),
                Map.of("term", List.of(done(100, QAWK, NEW_TERM), done(130, "alice", 99))), QAWK).agrees()).isTrue();
    }

    @Test
    void adoptingEveryDeviceFinishedOnItsNewSetSucceeds() {
        Ledger.Adoption a = Ledger.adopt(RunState.RUNNING, List.of(term(DeviceState.ASSIGNED, 100L), lane(DeviceState.WAITING, null)),
                Map.of("term", List.of(done(100, QAWK, NEW_TERM)), "lane", List.of(done(104, QAWK, NEW_APP))));
        assertThat(a.refused()).isFalse();
        assertThat(a.state()).isEqualTo(RunState.SUCCEEDED);
        assertThat(a.devices()).containsEntry("lane", DeviceState.SUCCEEDED).containsEntry("term", DeviceState.SUCCEEDED);
        assertThat(a.actionIds()).containsEntry("lane", 104L);
    }

    @Test
    void adoptingEveryDeviceBackOnItsPhotographRollsBackAFailure() {
        Ledger.Adoption a = Ledger.adopt(RunState.RUNNING, List.of(term(DeviceState.ASSIGNED, 100L), lane(DeviceState.WAITING, null)),
                Map.of("term", List.of(done(100, QAWK, NEW_TERM), done(107, QAWK, OLD_TERM)),
                        "lane", List.of(new Ledger.Action(104, QAWK, NEW_APP, "error", false), done(105, QAWK, OLD_APP))));
        assertThat(a.state()).isEqualTo(RunState.ROLLED_BACK);
        assertThat(a.failed()).isTrue();
        assertThat(a.devices()).containsEntry("term", DeviceState.ROLLED_BACK).containsEntry("lane", DeviceState.ROLLED_BACK);
        assertThat(a.words()).isEqualTo("hawkBit shows term term 1.0 finished (action 107), lane app 1.0 finished (action 105)");
    }

    @Test
    void goingBackAnOpenActionOrAMixIsRefusedSayingWhatHawkbitShows() {
        Ledger.Adoption going = Ledger.adopt(RunState.ROLLING_BACK, List.of(term(DeviceState.ROLLBACK_WAITING, 100L),
                        lane(DeviceState.ROLLBACK_WAITING, 104L)),
                Map.of("term", List.of(done(100, QAWK, NEW_TERM), new Ledger.Action(107, QAWK, OLD_TERM, "running", true)),
                        "lane", List.of(done(104, QAWK, NEW_APP))));
        assertThat(going.refusal()).isEqualTo("action 107 on term (term 1.0) is still open; adopt once hawkBit's"
                + " actions have ended");
        // going back, a mix is not a state the records can take: the refusal names no command that is refused too
        Ledger.Adoption mix = Ledger.adopt(RunState.ROLLING_BACK, List.of(term(DeviceState.ROLLBACK_WAITING, 100L),
                        lane(DeviceState.ROLLBACK_WAITING, 104L)),
                Map.of("term", List.of(done(100, QAWK, NEW_TERM), done(107, QAWK, OLD_TERM)),
                        "lane", List.of(done(104, QAWK, NEW_APP))));
        assertThat(mix.refusal()).startsWith("hawkBit shows term term 1.0 finished (action 107), lane app 2.0 finished"
                + " (action 104):").contains("put the system right in hawkBit").doesNotContain("roll the system back");
    }

    @Test
    void adoptingASystemPartWayTakesQawksLostSendsAsSentAndTheEngineGoesOnFromThere() {
        // order 1's "sent" was lost: hawkBit finished the terminal's action; the lane's order was not reached
        Ledger.Adoption a = Ledger.adopt(RunState.RUNNING, List.of(term(DeviceState.WAITING, null),
                        lane(DeviceState.WAITING, null)),
                Map.of("term", List.of(done(100, QAWK, NEW_TERM))));
        assertThat(a.refused()).isFalse();
        assertThat(a.underWay()).isTrue();
        assertThat(a.state()).isEqualTo(RunState.RUNNING);
        assertThat(a.cause()).isNull();
        // the terminal is recorded as sent with hawkBit's action: the engine observes it finished (and verifies it)
        assertThat(a.devices()).containsExactly(Map.entry("term", DeviceState.ASSIGNED));
        assertThat(a.actionIds()).containsExactly(Map.entry("term", 100L));
        assertThat(a.words()).isEqualTo("hawkBit shows term term 2.0 finished (action 100), lane not sent");

        // an action still open on the new set is a send the engine waits for, as it would have
        Ledger.Adoption open = Ledger.adopt(RunState.RUNNING, List.of(term(DeviceState.SUCCEEDED, 100L),
                        lane(DeviceState.WAITING, null)),
                Map.of("term", List.of(done(100, QAWK, NEW_TERM)),
                        "lane", List.of(new Ledger.Action(104, QAWK, NEW_APP, "running", true))));
        assertThat(open.underWay()).isTrue();
        assertThat(open.devices()).containsExactly(Map.entry("lane", DeviceState.ASSIGNED));
        assertThat(open.actionIds()).containsExactly(Map.entry("lane", 104L));

        // the assignment was decided (ASSIGNED) but hawkBit's answer, its action id, was lost: the action is named now
        Ledger.Adoption named = Ledger.adopt(RunState.RUNNING, List.of(term(DeviceState.SUCCEEDED, 100L),
                        lane(DeviceState.ASSIGNED, null)),
                Map.of("term", List.of(done(100, QAWK, NEW_TERM)),
                        "lane", List.of(new Ledger.Action(104, QAWK, NEW_APP, "running", true))));
        assertThat(named.refused()).as(named.refusal()).isFalse();
        assertThat(named.devices()).containsExactly(Map.entry("lane", DeviceState.ASSIGNED));
        assertThat(named.actionIds()).containsExactly(Map.entry("lane", 104L));
    }

    @Test
    void adoptingASystemThatHawkbitShowsGoingBackPartWayGoesOnBack() {
        // the lane failed app 2.0 and was already back; the terminal is still on its new set: the rest goes back
        Ledger.Adoption a = Ledger.adopt(RunState.RUNNING, List.of(term(DeviceState.ASSIGNED, 100L),
                        lane(DeviceState.WAITING, null)),
                Map.of("term", List.of(done(100, QAWK, NEW_TERM)),
                        "lane", List.of(new Ledger.Action(104, QAWK, NEW_APP, "error", false), done(105, QAWK, OLD_APP))));
        assertThat(a.underWay()).isTrue();
        assertThat(a.cause()).isEqualTo(RollbackCause.FAILURE);
        assertThat(a.devices()).containsExactly(Map.entry("lane", DeviceState.ROLLED_BACK));
        assertThat(a.actionIds()).containsExactly(Map.entry("lane", 105L));

        // someone else's set on a device is not a state the run can take: put right in hawkBit first
        Ledger.Adoption other = Ledger.adopt(RunState.RUNNING, List.of(term(DeviceState.ASSIGNED, 100L),
                        lane(DeviceState.WAITING, null)),
                Map.of("term", List.of(done(100, QAWK, NEW_TERM)), "lane", List.of(done(130, "alice", 99))));
        assertThat(other.refusal()).contains("lane set 99 finished (action 130)").contains("put the system right in hawkBit");
    }

    @Test
    void pathsGoThroughTheGuardOneMoveAtATime() {
        assertThat(Ledger.path(DeviceState.ASSIGNED, DeviceState.ROLLED_BACK)).containsExactly(DeviceState.SUCCEEDED,
                DeviceState.ROLLBACK_WAITING, DeviceState.ROLLBACK_ASSIGNING, DeviceState.ROLLBACK_ASSIGNED,
                DeviceState.ROLLED_BACK);
        assertThat(Ledger.path(RunState.RUNNING, RunState.ROLLED_BACK))
                .containsExactly(RunState.ROLLING_BACK, RunState.ROLLED_BACK);
        assertThat(Ledger.path(DeviceState.WAITING, DeviceState.NOT_SENT)).containsExactly(DeviceState.NOT_SENT);
        assertThat(Ledger.path(DeviceState.KEPT, DeviceState.SUCCEEDED)).isEmpty();
    }
}
