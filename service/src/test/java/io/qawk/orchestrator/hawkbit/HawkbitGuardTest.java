package io.qawk.orchestrator.hawkbit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/** Retry, backoff and breaker of every hawkBit call (SmallRye Fault Tolerance's guards, as {@link HawkbitGuard} sets them up). */
@QuarkusTest
class HawkbitGuardTest {

    private static HawkbitGuard guard(int retries, int threshold, Duration breakerDelay) {
        return new HawkbitGuard(TestConfig.forUrl("http://127.0.0.1:1").withRetries(retries)
                .withBreaker(threshold, breakerDelay));
    }

    @Test
    void backoffGrowsWithJitterAndIsCappedAtTheMaximum() {
        long[][] bounds = { { 50, 150 }, { 100, 300 }, { 150, 450 }, { 150, 450 } }; // 100, 200, 300 cap, 300 cap
        for (int run = 0; run < 200; run++) {
            HawkbitGuard.Backoff backoff = new HawkbitGuard.Backoff(100, 300);
            for (int i = 0; i < 4; i++) {
                assertThat(backoff.nextDelayInMillis(null)).as("retry %d", i + 1).isBetween(bounds[i][0], bounds[i][1]);
            }
        }
        assertThat(new HawkbitGuard.Backoff(0, 300).nextDelayInMillis(null)).isZero();
    }

    @Test
    void transientFailuresAreRetriedThenUnavailableWithTheAttemptsAndTheLastCause() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> guard(4, 100, Duration.ofSeconds(10)).call("op", () -> {
            calls.incrementAndGet();
            throw new HawkbitGuard.Transient("HTTP 503", null);
        })).isInstanceOf(HawkbitUnavailableException.class).hasMessageContaining("op failed after 5 attempt(s)")
                .hasMessageContaining("HTTP 503");
        assertThat(calls).hasValue(5);
    }

    @Test
    void successAfterTransientFailuresIsReturned() {
        AtomicInteger calls = new AtomicInteger();
        String result = guard(3, 100, Duration.ofSeconds(10)).call("op", () -> {
            if (calls.incrementAndGet() < 3) {
                throw new HawkbitGuard.Transient("reset", null);
            }
            return "ok";
        });
        assertThat(result).isEqualTo("ok");
        assertThat(calls).hasValue(3);
    }

    @Test
    void otherExceptionsPassThroughAtOnceAndCountAsHawkbitWorking() {
        HawkbitGuard guard = guard(3, 1, Duration.ofSeconds(10));
        AtomicInteger calls = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> guard.call("op", () -> {
                calls.incrementAndGet();
                throw new HawkbitRequestException(400, null, null, "bad");
            })).isInstanceOf(HawkbitRequestException.class);
        }
        assertThat(calls).hasValue(3);
        assertThat(guard.isOpen()).isFalse();
    }

    @Test
    void breakerOpensAfterThresholdFailsFastThenLetsOneTrialThrough() throws Exception {
        HawkbitGuard guard = guard(0, 2, Duration.ofMillis(300));
        AtomicInteger calls = new AtomicInteger();
        Runnable failing = () -> guard.call("op", () -> {
            calls.incrementAndGet();
            throw new HawkbitGuard.Transient("down", null);
        });

        assertThatThrownBy(failing::run).isInstanceOf(HawkbitUnavailableException.class);
        assertThat(guard.isOpen()).isFalse();
        assertThatThrownBy(failing::run).isInstanceOf(HawkbitUnavailableException.class);
        assertThat(guard.isOpen()).isTrue();
        assertThatThrownBy(failing::run).hasMessageContaining("circuit breaker open");
        assertThat(calls).hasValue(2);

        Thread.sleep(350);
        assertThatThrownBy(failing::run).hasMessageContaining("failed after 1 attempt"); // trial fails: open again
        assertThat(calls).hasValue(3);
        assertThatThrownBy(failing::run).hasMessageContaining("circuit breaker open");

        Thread.sleep(350);
        assertThat(guard.call("op", () -> "up")).isEqualTo("up");
        assertThat(guard.isOpen()).isFalse();
        assertThat(guard.call("op", () -> "still up")).isEqualTo("still up");
    }

    @Test
    void theBreakerCountsCallsNotTheirRetries() {
        HawkbitGuard guard = guard(2, 2, Duration.ofSeconds(10));
        AtomicInteger calls = new AtomicInteger();
        Runnable failing = () -> guard.call("op", () -> {
            calls.incrementAndGet();
            throw new HawkbitGuard.Transient("down", null);
        });

        assertThatThrownBy(failing::run).hasMessageContaining("failed after 3 attempt(s)");
        assertThat(guard.isOpen()).isFalse();
        assertThatThrownBy(failing::run).hasMessageContaining("failed after 3 attempt(s)");
        assertThat(guard.isOpen()).isTrue();
        assertThat(calls).hasValue(6);
    }

    @Test
    void interruptedWhileWaitingGivesUpAsUnavailableAndKeepsTheInterrupt() throws Exception {
        HawkbitGuard guard = new HawkbitGuard(TestConfig.forUrl("http://127.0.0.1:1").withRetries(3)
                .withRetryDelays(Duration.ofSeconds(5), Duration.ofSeconds(5)));
        CountDownLatch attempted = new CountDownLatch(1);
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                guard.call("op", () -> {
                    attempted.countDown();
                    throw new HawkbitGuard.Transient("down", null);
                });
            } catch (Throwable e) {
                thrown.complete(e);
            } finally {
                interrupted.complete(Thread.currentThread().isInterrupted());
            }
        });
        caller.start();
        assertThat(attempted.await(5, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(100); // now waiting for the first retry
        long start = System.nanoTime();
        caller.interrupt();

        assertThat(thrown.get(5, TimeUnit.SECONDS)).isInstanceOf(HawkbitUnavailableException.class)
                .hasMessageContaining("interrupted");
        assertThat(interrupted.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    }
}
