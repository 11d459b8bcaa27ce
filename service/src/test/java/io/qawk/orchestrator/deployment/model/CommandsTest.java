package io.qawk.orchestrator.deployment.model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.EnumSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which command each state allows, and the words it refuses the others with ({@link DeploymentPhase#allows},
 * {@link RunState#allows}): every state is asked every command. A row lists the states that allow a command; every
 * other state refuses it with the words of the row's refusal ({@code %s}: the state; {@code #}: the deployment's id 7
 * or the system 'lane-1').
 */
class CommandsTest {

    static final long ID = 7;
    static final String RULE = "system type 'lane' requires four eyes";

    @ParameterizedTest(name = "{0}: allowed in {1}")
    @CsvSource(delimiter = '|', textBlock = """
            START      | DRAFT                                         | deployment 7 is %s; only a DRAFT can be started
            PAUSE      | RUNNING                                       | deployment 7 is %s; only a RUNNING deployment can be paused
            RESUME     | PAUSED                                        | deployment 7 is %s; only a PAUSED deployment can be resumed
            ABORT      | AWAITING_APPROVAL DRAFT RUNNING PAUSED FAILED | deployment 7 is %s; there is nothing left to abort
            APPROVE    | AWAITING_APPROVAL                             | deployment 7 is %s; only a deployment AWAITING_APPROVAL can be approved
            REJECT     | AWAITING_APPROVAL                             | deployment 7 is %s; only a deployment AWAITING_APPROVAL can be rejected
            EDIT       | AWAITING_APPROVAL DRAFT                       | deployment 7 is %s; only a deployment not yet started (DRAFT or AWAITING_APPROVAL) can be edited
            TAKE_AGAIN | RUNNING PAUSED FINISHED FAILED                | deployment 7 is %s and has not started: it has no system to take again
            ROLL_BACK  | RUNNING PAUSED ABORTING ABORTED FINISHED FAILED | deployment 7 is %s and has not started: it has no system to roll back
            ADOPT      | RUNNING PAUSED ABORTING                       | deployment 7 is %s; only a RUNNING, PAUSED or ABORTING deployment has systems whose records can be behind hawkBit
            """)
    void eachPhaseAllowsOrRefusesEachCommand(Command command, String allowedIn, String refusal) {
        Set<DeploymentPhase> allowed = phases(allowedIn);
        for (DeploymentPhase phase : DeploymentPhase.values()) {
            assertThat(phase.allows(command)).as(phase + " allows " + command).isEqualTo(allowed.contains(phase));
            if (!allowed.contains(phase) && !exception(command, phase)) {
                assertThat(phase.refusal(command, ID, RULE)).as(phase + " refuses " + command)
                        .isEqualTo(refusal.formatted(phase));
            }
        }
    }

    /** The refusals with words of their own, checked one by one below. */
    private static boolean exception(Command command, DeploymentPhase phase) {
        return command == Command.START && phase == DeploymentPhase.AWAITING_APPROVAL
                || command == Command.TAKE_AGAIN && (phase == DeploymentPhase.ABORTED || phase == DeploymentPhase.ABORTING);
    }

    @Test
    void startWaitsForTheApprovalAndTakeAgainEndsWithAnAbort() {
        assertThat(DeploymentPhase.AWAITING_APPROVAL.refusal(Command.START, ID, RULE))
                .isEqualTo("deployment 7 is AWAITING_APPROVAL and cannot start until it is approved: " + RULE);
        assertThat(DeploymentPhase.ABORTED.refusal(Command.TAKE_AGAIN, ID, null))
                .isEqualTo("deployment 7 was aborted; start a new deployment instead");
        assertThat(DeploymentPhase.ABORTING.refusal(Command.TAKE_AGAIN, ID, null))
                .isEqualTo("deployment 7 was aborted; start a new deployment instead");
    }

    @Test
    void anApprovalOfADeploymentThatNeedsNoneSaysSo() {
        assertThat(DeploymentPhase.DRAFT.refusal(Command.APPROVE, ID, null)).isEqualTo("deployment 7 is DRAFT; only a"
                + " deployment AWAITING_APPROVAL can be approved (its system type and channel require no approval)");
        assertThat(DeploymentPhase.RUNNING.refusal(Command.REJECT, ID, RULE))
                .isEqualTo("deployment 7 is RUNNING; only a deployment AWAITING_APPROVAL can be rejected");
    }

    @Test
    void aFailedDeploymentAbortsOnlyWhileSystemsArePending() {
        assertThat(DeploymentPhase.FAILED.allowsAbort(2)).isTrue();
        assertThat(DeploymentPhase.FAILED.allowsAbort(0)).isFalse();
        assertThat(DeploymentPhase.RUNNING.allowsAbort(0)).isTrue();
        assertThat(DeploymentPhase.FINISHED.allowsAbort(3)).isFalse();
        assertThat(DeploymentPhase.FAILED.refusal(Command.ABORT, ID, null)).isEqualTo("deployment 7 is FAILED with no"
                + " system left to start; there is nothing to abort: take a rolled-back system again, or leave it as it is");
    }

    @ParameterizedTest(name = "{0}: allowed in {1}")
    @CsvSource(delimiter = '|', textBlock = """
            START      | PENDING                       | system 'lane-1' is %s; only a PENDING system can be started
            ABORT      | PENDING                       | system 'lane-1' is %s; only a PENDING system is skipped by an abort
            ROLL_BACK  | RUNNING VERIFYING SUCCEEDED   | system 'lane-1' is %s; only a RUNNING, VERIFYING or SUCCEEDED system can be rolled back by hand
            TAKE_AGAIN | ROLLED_BACK ROLLBACK_FAILED   | system 'lane-1' is %s; only a ROLLED_BACK or ROLLBACK_FAILED system can be taken again
            PAUSE      |                               | pause is asked of a whole deployment, not of system 'lane-1'
            RESUME     |                               | resume is asked of a whole deployment, not of system 'lane-1'
            APPROVE    |                               | approve is asked of a whole deployment, not of system 'lane-1'
            REJECT     |                               | reject is asked of a whole deployment, not of system 'lane-1'
            EDIT       |                               | edit is asked of a whole deployment, not of system 'lane-1'
            ADOPT      | RUNNING VERIFYING ROLLING_BACK | system 'lane-1' is %s; only a system under way (RUNNING, VERIFYING or ROLLING_BACK) can have records behind hawkBit
            """)
    void eachRunStateAllowsOrRefusesEachCommand(Command command, String allowedIn, String refusal) {
        Set<RunState> allowed = runStates(allowedIn);
        for (RunState state : RunState.values()) {
            assertThat(state.allows(command, null)).as(state + " allows " + command).isEqualTo(allowed.contains(state));
            if (!allowed.contains(state)) {
                assertThat(state.refusal(command, "lane-1", null)).as(state + " refuses " + command)
                        .isEqualTo(refusal.formatted(state));
            }
        }
    }

    /** A run whose rollback is asked for reads ROLLING_BACK: it is not rolled back twice, nor taken again yet. */
    @Test
    void aRunGoingBackIsNotRolledBackAgainNorTakenAgain() {
        for (RunState state : EnumSet.of(RunState.RUNNING, RunState.VERIFYING, RunState.SUCCEEDED)) {
            assertThat(state.allows(Command.ROLL_BACK, RollbackCause.MANUAL)).as(state.name()).isFalse();
            assertThat(state.allows(Command.TAKE_AGAIN, RollbackCause.FAILURE)).as(state.name()).isFalse();
            assertThat(state.refusal(Command.ROLL_BACK, "lane-1", RollbackCause.MANUAL))
                    .isEqualTo("system 'lane-1' is already going back (manual)");
        }
        assertThat(RunState.ROLLED_BACK.allows(Command.TAKE_AGAIN, RollbackCause.MANUAL)).isTrue();
        assertThat(RunState.stillRollingBack("lane-1", 1, 3))
                .isEqualTo("lane-1 is still rolling back (1 of 4 devices back): take it again once it reads ROLLED_BACK"
                        + " (or ROLLBACK_FAILED)");
    }

    /** A run whose records hawkBit contradicts is not rolled back from them: adopt first (only such a run); other commands as its state says. */
    @Test
    void aRunWhoseRecordsAreBehindIsNotRolledBack() {
        SystemRun run = new SystemRun();
        run.id = 7L;
        run.system = "lane-1";
        run.state = RunState.RUNNING;
        assertThat(run.allows(Command.ROLL_BACK)).isTrue();
        assertThat(run.allows(Command.ADOPT)).isFalse();
        assertThat(run.refusal(Command.ADOPT)).isEqualTo("run 7's records agree with hawkBit: nothing to adopt");
        run.divergence = "records behind hawkBit: lane-1: action 24 sent by Qawk's user, in no record";
        assertThat(run.allows(Command.ROLL_BACK)).isFalse();
        assertThat(run.refusal(Command.ROLL_BACK)).startsWith("run 7's records are behind hawkBit")
                .contains("POST …/runs/7/adopt");
        assertThat(run.allows(Command.TAKE_AGAIN)).isEqualTo(RunState.RUNNING.allows(Command.TAKE_AGAIN, null));
        assertThat(run.allows(Command.ADOPT)).isTrue();
    }

    private static Set<DeploymentPhase> phases(String names) {
        Set<DeploymentPhase> set = EnumSet.noneOf(DeploymentPhase.class);
        for (String n : names == null ? new String[0] : names.trim().split("\\s+")) {
            set.add(DeploymentPhase.valueOf(n));
        }
        return set;
    }

    private static Set<RunState> runStates(String names) {
        Set<RunState> set = EnumSet.noneOf(RunState.class);
        for (String n : names == null ? new String[0] : names.trim().split("\\s+")) {
            set.add(RunState.valueOf(n));
        }
        return set;
    }
}
