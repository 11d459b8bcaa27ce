package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.plan.RunScheduler.Follow;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The scheduler, not the start gate or the follower, decides which pending runs are given up or taken again. */
class RunSchedulerDecidesTest {

    @Test
    void aHeldBackSystemWaitsUnlessItVanished() {
        assertThat(RunScheduler.hold(7, "waiting for deployment \"a\" (#1) to finish with this system", false))
                .isEqualTo(new RunScheduler.Hold(7, "waiting for deployment \"a\" (#1) to finish with this system", false));
        assertThat(RunScheduler.hold(8, RunScheduler.Start.GIVEN_UP, true).giveUp()).isTrue();
    }

    @Test
    void aChannelsRunFollowsItsScope() {
        assertThat(RunScheduler.follow(RunState.GIVEN_UP, true, false)).isEqualTo(Follow.TAKE_AGAIN);
        assertThat(RunScheduler.follow(RunState.PENDING, true, false)).isEqualTo(Follow.KEEP);
        assertThat(RunScheduler.follow(RunState.PENDING, false, false)).isEqualTo(Follow.GIVE_UP);
        assertThat(RunScheduler.follow(RunState.PENDING, false, true)).as("mixed: moving, not gone").isEqualTo(Follow.KEEP);
        assertThat(RunScheduler.follow(RunState.RUNNING, false, false)).as("started: it finishes").isEqualTo(Follow.KEEP);
        assertThat(RunScheduler.follow(RunState.GIVEN_UP, false, false)).isEqualTo(Follow.KEEP);
    }

    @Test
    void aRunStartsWhenItsPhotographHoldsDevices() {
        assertThat(RunScheduler.start(RunState.PENDING, 3)).isEqualTo(RunScheduler.Start.START);
        assertThat(RunScheduler.start(RunState.PENDING, 0)).isEqualTo(RunScheduler.Start.GIVE_UP);
        assertThat(RunScheduler.start(RunState.RUNNING, 3)).isEqualTo(RunScheduler.Start.NOT_PENDING);
    }
}
