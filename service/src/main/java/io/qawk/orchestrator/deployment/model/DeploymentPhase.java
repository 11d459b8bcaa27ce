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
 * Commands: start (DRAFT), pause (RUNNING), resume (PAUSED), abort (AWAITING_APPROVAL, DRAFT, RUNNING, PAUSED,
 * FAILED with systems its failures left pending: they are skipped), approve and reject (AWAITING_APPROVAL), edit
 * (AWAITING_APPROVAL, DRAFT).
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
