package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.deployment.ChannelDeployments;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemRun;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A release's systems in words (issue 56): held systems are counted ("2 of 3 systems updated, 0 rolled back, 1 held"),
 * and a system whose rollback is asked for is under way, not updated, as its run reads ROLLING_BACK.
 */
class ReleaseWordsTest {

    @Test
    void aHeldSystemIsCountedInTheReleasesWords() {
        ChannelDeployments.SystemTally t = ChannelDeployments.SystemTally.of(List.of(
                new SystemRun.Tally(RunState.SUCCEEDED, "c01", 2),
                new SystemRun.Tally(RunState.PENDING, "c02", 1, 0, 0, 1)));
        ChannelView.SystemCounts c = new ChannelView.SystemCounts(t.total(), t.updated(), t.back(), t.underWay(),
                t.pending(), t.givenUp(), t.held());
        assertThat(ReleaseStatus.systemsWords(c)).isEqualTo("2 of 3 systems updated, 0 rolled back, 1 held");
    }

    @Test
    void aSystemWhoseRollbackIsAskedIsUnderWayNotUpdated() {
        ChannelDeployments.SystemTally t = ChannelDeployments.SystemTally.of(List.of(
                new SystemRun.Tally(RunState.SUCCEEDED, "c01", 3, 1, 0, 0)));
        assertThat(t.updated()).isEqualTo(2);
        assertThat(t.underWay()).isEqualTo(1);
        assertThat(t.total()).isEqualTo(3);
    }

    @Test
    void aReleasesStateIsDerivedInOnePlaceFromHaltedAndCompletedAt() {
        ChannelRelease r = new ChannelRelease();
        assertThat(r.progress()).isEqualTo(ChannelRelease.ReleaseProgress.RUNNING);
        r.completedAt = Instant.EPOCH;
        assertThat(r.progress()).isEqualTo(ChannelRelease.ReleaseProgress.COMPLETE);
        r.halted = true;
        assertThat(r.progress()).isEqualTo(ChannelRelease.ReleaseProgress.HALTED);
    }
}
