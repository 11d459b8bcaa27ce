package io.qawk.orchestrator.deployment;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.qawk.orchestrator.deployment.DeploymentPhase.RUNNING;
import static org.assertj.core.api.Assertions.assertThat;

/** Which pending systems start: maxParallel, maxFailed, byCentre, halts, blocked systems and take again. */
class RunSchedulerTest {

    /** Runs in sequence; each spec is {@code state[/group][+again]}, e.g. {@code PENDING/c02+again}. */
    private static List<DeploymentPhase.RunSummary> runs(String... specs) {
        List<DeploymentPhase.RunSummary> out = new ArrayList<>();
        for (int i = 0; i < specs.length; i++) {
            String spec = specs[i];
            boolean again = spec.endsWith("+again");
            spec = spec.replace("+again", "");
            String[] parts = spec.split("/");
            RunState state = RunState.valueOf(parts[0]);
            RollbackCause cause = state.wentBack() ? RollbackCause.FAILURE : null;
            out.add(new DeploymentPhase.RunSummary(i + 1, state, parts.length > 1 ? parts[1] : "c01", i, cause, again));
        }
        return out;
    }

    private static List<Long> ids(List<DeploymentPhase.RunSummary> started) {
        return started.stream().map(DeploymentPhase.RunSummary::id).toList();
    }

    @Test
    void startsInSequenceUpToMaxParallel() {
        assertThat(ids(RunScheduler.toStart(RUNNING, 2, 0, false, runs("RUNNING", "PENDING", "PENDING", "PENDING"))))
                .containsExactly(2L);
        assertThat(ids(RunScheduler.toStart(RUNNING, 3, 0, false, runs("SUCCEEDED", "PENDING", "PENDING", "PENDING"))))
                .containsExactly(2L, 3L, 4L);
        assertThat(RunScheduler.toStart(RUNNING, 1, 0, false, runs("ROLLING_BACK", "PENDING"))).isEmpty();
    }

    @Test
    void nothingStartsUnlessRunning() {
        for (DeploymentPhase phase : List.of(DeploymentPhase.PAUSED, DeploymentPhase.ABORTING, DeploymentPhase.FAILED,
                DeploymentPhase.DRAFT)) {
            assertThat(RunScheduler.toStart(phase, 5, 5, false, runs("PENDING"))).as(phase.name()).isEmpty();
        }
    }

    @Test
    void overTheFailureBudgetOnlySystemsTakenAgainStart() {
        List<DeploymentPhase.RunSummary> runs = runs("ROLLED_BACK", "PENDING+again", "PENDING", "ROLLED_BACK");
        assertThat(ids(RunScheduler.toStart(RUNNING, 5, 0, false, runs))).containsExactly(2L);
        assertThat(ids(RunScheduler.toStart(RUNNING, 5, 2, false, runs))).containsExactly(2L, 3L);
        assertThat(RunScheduler.toStart(RUNNING, 5, 0, false, runs("ROLLED_BACK", "PENDING", "ROLLED_BACK"))).isEmpty();
    }

    @Test
    void aHaltedReleaseStartsOnlySystemsTakenAgain() {
        List<DeploymentPhase.RunSummary> runs = runs("SUCCEEDED", "PENDING", "PENDING+again");
        assertThat(ids(RunScheduler.toStart(RUNNING, 5, 5, false, true, runs, Set.of()))).containsExactly(3L);
        assertThat(ids(RunScheduler.toStart(RUNNING, 5, 5, false, false, runs, Set.of()))).containsExactly(2L, 3L);
    }

    @Test
    void blockedSystemsArePassedOverAndTakeNoSlot() {
        List<DeploymentPhase.RunSummary> runs = runs("PENDING", "PENDING", "PENDING");
        assertThat(ids(RunScheduler.toStart(RUNNING, 1, 0, false, false, runs, Set.of(1L)))).containsExactly(2L);
        assertThat(ids(RunScheduler.toStart(RUNNING, 2, 0, false, false, runs, Set.of(1L, 2L)))).containsExactly(3L);
        assertThat(RunScheduler.toStart(RUNNING, 3, 0, false, false, runs, Set.of(1L, 2L, 3L))).isEmpty();
    }

    @Test
    void byCentreTakesOnlyTheFirstCentreNotDone() {
        List<DeploymentPhase.RunSummary> runs = runs("SUCCEEDED/c02", "RUNNING/c02", "PENDING/c02", "PENDING/c01");
        assertThat(ids(RunScheduler.toStart(RUNNING, 5, 0, true, runs))).containsExactly(3L);
        assertThat(ids(RunScheduler.toStart(RUNNING, 5, 0, true, runs("SUCCEEDED/c02", "GIVEN_UP/c02", "PENDING/c01"))))
                .containsExactly(3L);
        // a blocked system of the centre keeps the centre open: the next centre waits for it
        assertThat(RunScheduler.toStart(RUNNING, 5, 0, true, false, runs("PENDING/c02", "PENDING/c01"), Set.of(1L))).isEmpty();
    }

    @Test
    void theSlotsCountOnlySystemsUnderWay() {
        assertThat(RunScheduler.slots(3, runs("RUNNING", "ROLLING_BACK", "SUCCEEDED", "PENDING"))).isEqualTo(1);
        assertThat(RunScheduler.slots(1, runs("RUNNING", "RUNNING"))).isZero();
    }

    @Test
    void aDeploymentOverBudgetRunsAgainWhileASystemTakenAgainIsPending() {
        assertThat(DeploymentPhase.derive(true, false, false, 0, runs("ROLLED_BACK", "PENDING+again", "PENDING")))
                .isEqualTo(RUNNING);
        assertThat(DeploymentPhase.derive(true, false, false, 0, runs("ROLLED_BACK", "SUCCEEDED", "PENDING")))
                .isEqualTo(DeploymentPhase.FAILED);
        assertThat(DeploymentPhase.derive(true, false, false, 0, runs("ROLLED_BACK", "PENDING+again")))
                .isEqualTo(RUNNING);
        assertThat(DeploymentPhase.derive(true, false, false, 1, runs("ROLLED_BACK", "SUCCEEDED")))
                .isEqualTo(DeploymentPhase.FINISHED);
    }
}
