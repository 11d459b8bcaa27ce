package io.qawk.orchestrator.hawkbit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class ResilienceTest {

    private final AtomicLong now = new AtomicLong();
    private final List<Duration> sleeps = new ArrayList<>();

    private Resilience resilience(int retries, int threshold) {
        return new Resilience(retries, Duration.ofMillis(100), Duration.ofMillis(300), threshold,
                Duration.ofSeconds(10), now::get, sleeps::add);
    }

    @Test
    void retriesWithGrowingJitteredBackoffCappedAtTheMaximum() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> resilience(4, 100).call("op", () -> {
            calls.incrementAndGet();
            throw new Resilience.Transient("HTTP 503", null);
        })).isInstanceOf(HawkbitUnavailableException.class).hasMessageContaining("op failed after 5 attempt(s)")
                .hasMessageContaining("HTTP 503");

        assertThat(calls).hasValue(5);
        assertThat(sleeps).hasSize(4);
        long[][] bounds = { { 50, 150 }, { 100, 300 }, { 150, 450 }, { 150, 450 } }; // 100, 200, 300 cap, 300 cap
        for (int i = 0; i < 4; i++) {
            assertThat(sleeps.get(i).toMillis()).as("retry %d", i + 1).isBetween(bounds[i][0], bounds[i][1]);
        }
    }

    @Test
    void successAfterTransientFailuresIsReturned() {
        AtomicInteger calls = new AtomicInteger();
        String result = resilience(3, 100).call("op", () -> {
            if (calls.incrementAndGet() < 3) {
                throw new Resilience.Transient("reset", null);
            }
            return "ok";
        });
        assertThat(result).isEqualTo("ok");
        assertThat(sleeps).hasSize(2);
    }

    @Test
    void otherExceptionsPassThroughAtOnceAndCountAsHawkbitWorking() {
        Resilience resilience = resilience(3, 1);
        assertThatThrownBy(() -> resilience.call("op", () -> {
            throw new HawkbitRequestException(400, "bad");
        })).isInstanceOf(HawkbitRequestException.class);
        assertThat(sleeps).isEmpty();
        assertThat(resilience.isOpen()).isFalse();
    }

    @Test
    void breakerOpensAfterThresholdFailsFastThenLetsOneTrialThrough() {
        Resilience resilience = resilience(0, 2);
        AtomicInteger calls = new AtomicInteger();
        Runnable failing = () -> resilience.call("op", () -> {
            calls.incrementAndGet();
            throw new Resilience.Transient("down", null);
        });

        assertThatThrownBy(failing::run).isInstanceOf(HawkbitUnavailableException.class);
        assertThat(resilience.isOpen()).isFalse();
        assertThatThrownBy(failing::run).isInstanceOf(HawkbitUnavailableException.class);
        assertThat(resilience.isOpen()).isTrue();
        assertThatThrownBy(failing::run).hasMessageContaining("circuit breaker open");
        assertThat(calls).hasValue(2);

        now.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThatThrownBy(failing::run).hasMessageContaining("failed after 1 attempt"); // trial fails: open again
        assertThat(calls).hasValue(3);
        assertThatThrownBy(failing::run).hasMessageContaining("circuit breaker open");

        now.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(resilience.call("op", () -> "up")).isEqualTo("up");
        assertThat(resilience.isOpen()).isFalse();
        assertThat(resilience.call("op", () -> "still up")).isEqualTo("still up");
    }

    @Test
    void interruptedWhileWaitingGivesUpAsUnavailableAndKeepsTheInterrupt() {
        Resilience resilience = new Resilience(3, Duration.ofMillis(100), Duration.ofMillis(100), 5,
                Duration.ofSeconds(1), now::get, d -> {
                    throw new InterruptedException();
                });
        try {
            assertThatThrownBy(() -> resilience.call("op", () -> {
                throw new Resilience.Transient("down", null);
            })).isInstanceOf(HawkbitUnavailableException.class).hasMessageContaining("interrupted");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
