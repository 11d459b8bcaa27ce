package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.plan.RunPlanner.Decision;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Decision#settle}: what a decision sets on its run besides the move (the store only writes it): the orders, the
 * rollback, a reason kept unless a new one is decided, a soak begun once, the end time when it ended.
 */
class DecisionSettleTest {

    static final Instant SOAKED = Instant.parse("2026-01-01T09:00:00Z");
    static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");

    private static Decision decision(RunState state, String reason, Instant soakStartedAt) {
        return new Decision(state, List.of(), 2, 1, RollbackCause.FAILURE, reason, Map.of(), List.of(), List.of(),
                "lane 1 is not scoring", soakStartedAt, soakStartedAt == null ? null : soakStartedAt.plusSeconds(60));
    }

    @Test
    void aDecisionUnderWaySetsOrdersAndRollbackAndKeepsTheReason() {
        SystemRun run = new SystemRun();
        run.reason = "waiting for deployment \"a\"";
        decision(RunState.ROLLING_BACK, null, null).settle(run, NOW);
        assertThat(run.currentOrder).isEqualTo(2);
        assertThat(run.failedOrder).isEqualTo(1);
        assertThat(run.rollbackCause).isEqualTo(RollbackCause.FAILURE);
        assertThat(run.rollbackReason).isEqualTo("lane 1 is not scoring");
        assertThat(run.reason).isEqualTo("waiting for deployment \"a\"");
        assertThat(run.endedAt).isNull();
        assertThat(run.soakStartedAt).isNull();
    }

    @Test
    void aSoakBeginsOnceAndAnEndedRunKeepsItsNewReasonAndEnd() {
        SystemRun run = new SystemRun();
        run.soakStartedAt = SOAKED;
        run.soakEndsAt = SOAKED.plusSeconds(30);
        decision(RunState.ROLLED_BACK, "rolled back", NOW).settle(run, NOW);
        assertThat(run.soakStartedAt).isEqualTo(SOAKED);
        assertThat(run.soakEndsAt).isEqualTo(SOAKED.plusSeconds(30));
        assertThat(run.reason).isEqualTo("rolled back");
        assertThat(run.endedAt).isEqualTo(NOW);
        SystemRun fresh = new SystemRun();
        decision(RunState.VERIFYING, null, SOAKED).settle(fresh, NOW);
        assertThat(fresh.soakStartedAt).isEqualTo(SOAKED);
        assertThat(fresh.soakEndsAt).isEqualTo(SOAKED.plusSeconds(60));
    }
}
