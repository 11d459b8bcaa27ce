package io.qawk.orchestrator.deployment.model;

import java.util.Collection;

/**
 * Where a deployment stands, always derived from its flags and its runs (never set by hand).
 *
 * <pre>
 * AWAITING_APPROVAL ─approve─▶ DRAFT       (four eyes, when its type or channel requires it; an edit goes back)
 *   └──reject──▶ REJECTED               (ended: it never starts)
 * DRAFT ─start─▶ RUNNING ─pause─▶ PAUSED ─resume─▶ RUNNING
 *   │              │ every run ended ▶ FINISHED     (take again reopens FINISHED/FAILED)
 *   │              │ more failed than maxFailed, none under way ▶ FAILED
 *   └──abort──▶ ABORTING (runs under way finish) ▶ ABORTED
 * </pre>
 * Commands ({@link #allows}, the one answer; {@link #refusal}, the words of a no): start (DRAFT), pause (RUNNING),
 * resume (PAUSED), abort (AWAITING_APPROVAL, DRAFT, RUNNING, PAUSED, FAILED with systems its failures left pending:
 * they are skipped, {@link #allowsAbort}), approve and reject (AWAITING_APPROVAL), edit (AWAITING_APPROVAL, DRAFT),
 * take again (RUNNING, PAUSED, FINISHED, FAILED: not once aborted), roll back (once started; of a run the run's state
 * answers too).
 */
public enum DeploymentPhase {
    DRAFT, RUNNING, PAUSED, ABORTING, ABORTED, FINISHED, FAILED, AWAITING_APPROVAL, REJECTED;

    /**
     * Ended: nothing will move unless a person takes a system again (FINISHED, FAILED) or never (ABORTED, REJECTED).
     */
    public boolean ended() {
        return this == FINISHED || this == FAILED || this == ABORTED || this == REJECTED;
    }

    /** Not started and still may be: a draft, or one waiting for its approval; it can be edited. */
    public boolean beforeStart() {
        return this == DRAFT || this == AWAITING_APPROVAL;
    }

    /**
     * The phase of a deployment not started nor aborted: REJECTED once rejected; AWAITING_APPROVAL while its rule asks
     * for an approval it has not got; else DRAFT.
     */
    static DeploymentPhase beforeStart(boolean approvalRequired, boolean approved, boolean rejected) {
        if (rejected) {
            return REJECTED;
        }
        return approvalRequired && !approved ? AWAITING_APPROVAL : DRAFT;
    }

    /** Whether a deployment in this phase may be asked {@code command} (a run's state answers for its own too). */
    public boolean allows(Command command) {
        return switch (command) {
            case START -> this == DRAFT;
            case PAUSE -> this == RUNNING;
            case RESUME -> this == PAUSED;
            case ABORT -> this == AWAITING_APPROVAL || this == DRAFT || this == RUNNING || this == PAUSED || this == FAILED;
            case APPROVE, REJECT -> this == AWAITING_APPROVAL;
            case EDIT -> beforeStart();
            case TAKE_AGAIN -> this == RUNNING || this == PAUSED || this == FINISHED || this == FAILED;
            case ROLL_BACK -> !beforeStart() && this != REJECTED;
            case ADOPT -> active(); // only runs under way are checked against hawkBit
        };
    }

    /**
     * Abort, knowing how many systems are still pending: a FAILED deployment allows it only while its failures left
     * some pending (they are skipped); with none, an abort would change nothing.
     */
    public boolean allowsAbort(long pendingRuns) {
        return allows(Command.ABORT) && (this != FAILED || pendingRuns > 0);
    }

    /**
     * The words of the refusal (a 409's detail) when deployment {@code id} in this phase is asked {@code command} it
     * does not allow (for abort: {@link #allowsAbort});
     * {@code approvalRule}: its four-eyes rule in words, null when it needs no approval.
     */
    public String refusal(Command command, long id, String approvalRule) {
        String is = "deployment " + id + " is " + this;
        return switch (command) {
            case START -> this == AWAITING_APPROVAL
                    ? is + " and cannot start until it is approved: " + approvalRule
                    : is + "; only a DRAFT can be started";
            case PAUSE -> is + "; only a RUNNING deployment can be paused";
            case RESUME -> is + "; only a PAUSED deployment can be resumed";
            case ABORT -> this == FAILED
                    ? is + " with no system left to start; there is nothing to abort: take a rolled-back system again,"
                    + " or leave it as it is"
                    : is + "; there is nothing left to abort";
            case APPROVE, REJECT -> is + "; only a deployment AWAITING_APPROVAL can be " + command.done()
                    + (approvalRule == null ? " (its system type and channel require no approval)" : "");
            case EDIT -> is + "; only a deployment not yet started (DRAFT or AWAITING_APPROVAL) can be edited";
            case TAKE_AGAIN -> this == ABORTED || this == ABORTING
                    ? "deployment " + id + " was aborted; start a new deployment instead"
                    : is + " and has not started: it has no system to take again";
            case ROLL_BACK -> is + " and has not started: it has no system to roll back";
            case ADOPT -> is + "; only a RUNNING, PAUSED or ABORTING deployment has systems whose records can be behind"
                    + " hawkBit";
        };
    }

    /** The engine has something to follow. */
    public boolean active() {
        return this == RUNNING || this == ABORTING || this == PAUSED;
    }

    /** Derives the phase from what was decided (started, paused, aborted) and how the runs stand. */
    static DeploymentPhase derive(boolean started, boolean paused, boolean aborted, int maxFailed,
                                  Collection<RunSummary> runs) {
        if (!started) {
            return aborted ? ABORTED : DRAFT;
        }
        long underWay = runs.stream().filter(r -> r.state().underWay() || r.manualRollbackPending()).count();
        long pending = runs.stream().filter(r -> r.state() == RunState.PENDING).count();
        if (aborted) {
            return underWay > 0 ? ABORTING : ABORTED;
        }
        if (paused) {
            return PAUSED;
        }
        if (underWay > 0) {
            return RUNNING;
        }
        if (failures(runs) > maxFailed) {
            // the budget stops systems never started, not one a person took again
            return runs.stream().anyMatch(r -> r.state() == RunState.PENDING && r.takenAgain()) ? RUNNING : FAILED;
        }
        return pending > 0 ? RUNNING : FINISHED;
    }

    public static long failures(Collection<RunSummary> runs) {
        return runs.stream().filter(RunSummary::countsAsFailure).count();
    }

    /** What the phase and the scheduler need to know of a run; {@code takenAgain} after a person's take again. */
    public record RunSummary(long id, RunState state, String group, int seq, RollbackCause cause, boolean takenAgain) {

        boolean countsAsFailure() {
            return cause == RollbackCause.FAILURE && (state.wentBack() || state == RunState.ROLLING_BACK);
        }

        boolean manualRollbackPending() {
            return cause == RollbackCause.MANUAL && (state == RunState.SUCCEEDED);
        }
    }
}
