package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.plan.RunScheduler.Follow;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The scheduler, not the start gate or the follower, decides which pending runs are given up or taken again. */
class RunSchedulerDecidesTest {

    /**
     * The start gate's verdicts on runs whose reasons read so: a vanished system is given up, any other waits; a wait
     * whose words the run already reads changes nothing, and is not stored.
     */
    @Test
    void aHeldBackSystemWaitsUnlessItVanishedAndOnlyAChangeIsStored() {
        String waitA = "waiting for deployment \"a\" (#1) to finish with this system";
        Map<Long, StartRules.Verdict> verdicts = new LinkedHashMap<>();
        verdicts.put(7L, new StartRules.Verdict(waitA, false));
        verdicts.put(8L, new StartRules.Verdict(RunScheduler.Start.GIVEN_UP, true));
        verdicts.put(9L, new StartRules.Verdict("waiting for b", false));
        verdicts.put(10L, new StartRules.Verdict("waiting for c", false));
        Map<Long, String> read = new LinkedHashMap<>();
        read.put(7L, waitA);
        read.put(8L, RunScheduler.Start.GIVEN_UP);
        read.put(9L, "waiting for c");
        assertThat(RunScheduler.holds(verdicts, read)).containsExactly(
                new RunScheduler.Hold(8, RunScheduler.Start.GIVEN_UP, true),
                new RunScheduler.Hold(9, "waiting for b", false),
                new RunScheduler.Hold(10, "waiting for c", false));
    }

    /** On the locked run: new words are stored and told on its timeline, as a wait or as giving up. */
    @Test
    void aHoldSaysWhatItChangesOfTheLockedRun() {
        RunScheduler.Hold wait = new RunScheduler.Hold(9, "waiting for b", false);
        assertThat(wait.newWords("waiting for b")).isFalse();
        assertThat(wait.newWords(null)).isTrue();
        assertThat(wait.event()).isEqualTo(new TimelineEvent.Waiting("waiting for b"));
        RunScheduler.Hold gone = new RunScheduler.Hold(8, RunScheduler.Start.GIVEN_UP, true);
        assertThat(gone.event()).isEqualTo(new TimelineEvent.GivenUp(RunScheduler.Start.GIVEN_UP));
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

    /** Decided on runs read unlocked, a follow applies to the locked run only while its state still allows it. */
    @Test
    void aFollowAppliesOnlyToTheStateItWasDecidedFor() {
        for (RunState state : RunState.values()) {
            assertThat(Follow.TAKE_AGAIN.appliesTo(state)).as("take again " + state).isEqualTo(state == RunState.GIVEN_UP);
            assertThat(Follow.GIVE_UP.appliesTo(state)).as("give up " + state).isEqualTo(state == RunState.PENDING);
            assertThat(Follow.KEEP.appliesTo(state)).as("keep " + state).isFalse();
        }
    }

    @Test
    void aRunStartsWhenItsPhotographHoldsDevices() {
        assertThat(RunScheduler.start(RunState.PENDING, 3)).isEqualTo(RunScheduler.Start.START);
        assertThat(RunScheduler.start(RunState.PENDING, 0)).isEqualTo(RunScheduler.Start.GIVE_UP);
        assertThat(RunScheduler.start(RunState.RUNNING, 3)).isEqualTo(RunScheduler.Start.NOT_PENDING);
    }
}
