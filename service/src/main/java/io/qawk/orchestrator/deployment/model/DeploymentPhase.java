package io.qawk.orchestrator.deployment.model;

import java.util.Collection;

/**
 * Where a deployment stands, always derived from its flags and its runs (never set by hand).
 *
 * <pre>
 * DRAFT ─start─▶ RUNNING ─pause─▶ PAUSED ─resume─▶ RUNNING
 *   │              │ every run ended ▶ FINISHED     (take again reopens FINISHED/FAILED)
 *   │              │ more failed than maxFailed, none under way ▶ FAILED
 *   └──abort──▶ ABORTING (runs under way finish) ▶ ABORTED
 * </pre>
 * Commands: start (DRAFT), pause (RUNNING), resume (PAUSED), abort (DRAFT, RUNNING, PAUSED, FAILED).
 */
public enum DeploymentPhase {
    DRAFT, RUNNING, PAUSED, ABORTING, ABORTED, FINISHED, FAILED;

    /** Ended: nothing will move unless a person takes a system again (FINISHED, FAILED) or never (ABORTED). */
    public boolean ended() {
        return this == FINISHED || this == FAILED || this == ABORTED;
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
