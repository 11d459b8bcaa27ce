package io.qawk.orchestrator.hawkbit;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How long hawkBit has left requests unanswered, on a clock the test moves (seconds as nanoseconds). */
class AnswerWatchTest {

    private final AtomicLong clock = new AtomicLong(1_000_000_000_000L);
    private final AnswerWatch watch = new AnswerWatch(clock::get);

    private void at(long seconds) {
        clock.set(1_000_000_000_000L + Duration.ofSeconds(seconds).toNanos());
    }

    private Optional<Long> silentSeconds() {
        return watch.silentFor().map(Duration::toSeconds);
    }

    @Test
    void nothingSentIsNotSilence() {
        at(100);
        assertThat(watch.silentFor()).isEmpty();
    }

    @Test
    void aRequestWaitingIsSilenceSinceItWasSentUntilItIsAnswered() {
        at(0);
        long request = watch.sent();
        at(25);
        assertThat(silentSeconds()).contains(25L);
        watch.answered(request);
        at(26);
        assertThat(watch.silentFor()).isEmpty();
    }

    @Test
    void anAnswerToAnotherRequestMeansHawkbitIsNotSilentSinceThen() {
        at(0);
        long slow = watch.sent();
        at(2);
        long quick = watch.sent();
        at(3);
        watch.answered(quick);
        at(10);
        assertThat(silentSeconds()).as("the slow one waits, but hawkBit answered at 3 s").contains(7L);
        watch.answered(slow);
        assertThat(watch.silentFor()).isEmpty();
    }

    @Test
    void aRequestThatEndedWithoutAnAnswerKeepsTheSilenceUntilAnAnswerComes() {
        at(0);
        long timedOut = watch.sent();
        at(30);
        watch.unanswered(timedOut); // the read timeout: no answer, but nothing waits any more either
        at(31);
        assertThat(silentSeconds()).contains(31L);
        long retry = watch.sent();
        at(45);
        assertThat(silentSeconds()).as("still since the first request").contains(45L);
        watch.answered(retry);
        assertThat(watch.silentFor()).isEmpty();
    }

    @Test
    void aRefusalAfterAnAnswerCountsFromThatAnswer() {
        at(0);
        long a = watch.sent();
        long b = watch.sent();
        at(5);
        watch.answered(a);
        at(6);
        watch.unanswered(b);
        at(20);
        assertThat(silentSeconds()).contains(15L);
    }
}
