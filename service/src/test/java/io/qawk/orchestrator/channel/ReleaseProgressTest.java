package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.channel.ChannelRelease.ReleaseProgress;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** A release's one word, derived as a deployment's phase is: from what happened to it, never set by hand. */
class ReleaseProgressTest {

    static final Instant DONE = Instant.parse("2026-01-01T10:00:00Z");

    @Test
    void aReleaseRunsCompletesOrHaltsAndAHaltOutweighsACompletion() {
        assertThat(ReleaseProgress.of(false, null)).isEqualTo(ReleaseProgress.RUNNING);
        assertThat(ReleaseProgress.of(false, DONE)).isEqualTo(ReleaseProgress.COMPLETE);
        assertThat(ReleaseProgress.of(true, null)).isEqualTo(ReleaseProgress.HALTED);
        assertThat(ReleaseProgress.of(true, DONE)).isEqualTo(ReleaseProgress.HALTED);
    }

    @Test
    void onlyAHaltedReleaseIsResumed() {
        assertThat(ReleaseProgress.HALTED.resumable()).isTrue();
        assertThat(ReleaseProgress.RUNNING.resumable()).isFalse();
        assertThat(ReleaseProgress.COMPLETE.resumable()).isFalse();
    }

    @Test
    void theEntityAnswersWithTheSameWord() {
        ChannelRelease r = new ChannelRelease();
        r.completedAt = DONE;
        assertThat(r.progress()).isEqualTo(ReleaseProgress.COMPLETE);
        r.halted = true;
        assertThat(r.progress()).isEqualTo(ReleaseProgress.HALTED);
    }
}
