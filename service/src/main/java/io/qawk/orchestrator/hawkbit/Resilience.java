package io.qawk.orchestrator.hawkbit;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Retry with exponential backoff and jitter, plus a consecutive-failure circuit breaker, for calls to hawkBit.
 * <p>
 * Hand-written instead of MicroProfile Fault Tolerance annotations so that it works, and is tested, without CDI and
 * without a running Quarkus application (annotations need CDI interception). An attempt signals a transient
 * failure by throwing {@link Transient}; anything else it throws passes through at once and counts as a working
 * hawkBit (it answered). The per-attempt time limit is the HTTP client's answer timeout.
 * <p>
 * Breaker: after {@code threshold} consecutive calls that failed all their attempts it opens and calls fail at once
 * for {@code openDelay}; then one trial call goes through (half-open): success closes it, failure opens it again.
 */
final class Resilience {

    /** Thrown by an attempt when retrying may help; the message explains the failure (no secrets). */
    static final class Transient extends RuntimeException {
        Transient(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Sleeps; replaceable in tests. */
    interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    private final int maxRetries;
    private final Duration retryDelay;
    private final Duration retryMaxDelay;
    private final int threshold;
    private final Duration openDelay;
    private final LongSupplier nanoClock;
    private final Sleeper sleeper;

    private int consecutiveFailures;
    private long openUntilNanos;
    private boolean open;
    private boolean trialInFlight;

    Resilience(int maxRetries, Duration retryDelay, Duration retryMaxDelay, int threshold, Duration openDelay,
            LongSupplier nanoClock, Sleeper sleeper) {
        this.maxRetries = Math.max(0, maxRetries);
        this.retryDelay = retryDelay;
        this.retryMaxDelay = retryMaxDelay;
        this.threshold = Math.max(1, threshold);
        this.openDelay = openDelay;
        this.nanoClock = nanoClock;
        this.sleeper = sleeper;
    }

    static Resilience of(HawkbitConfig config) {
        return new Resilience(config.maxRetries(), config.retryDelay(), config.retryMaxDelay(),
                config.circuitBreakerThreshold(), config.circuitBreakerDelay(), System::nanoTime,
                d -> Thread.sleep(d.toMillis()));
    }

    /** Runs {@code attempt} with retries and the breaker; throws {@link HawkbitUnavailableException} when it gives up. */
    <T> T call(String operation, Supplier<T> attempt) {
        boolean trial = admit(operation);
        Transient last = null;
        for (int attemptNo = 0; attemptNo <= maxRetries; attemptNo++) {
            if (attemptNo > 0) {
                pause(operation, attemptNo, last);
            }
            try {
                T result = attempt.get();
                succeeded();
                return result;
            } catch (Transient e) {
                last = e;
            } catch (RuntimeException e) {
                succeeded(); // hawkBit answered; what the answer means is the caller's business
                throw e;
            } catch (Error e) {
                released(trial);
                throw e;
            }
        }
        failed();
        throw new HawkbitUnavailableException("hawkBit unavailable: " + operation + " failed after "
                + (maxRetries + 1) + " attempt(s); last: " + last.getMessage(), last);
    }

    /** Current state, for tests and diagnostics. */
    synchronized boolean isOpen() {
        return open;
    }

    private synchronized boolean admit(String operation) {
        if (!open) {
            return false;
        }
        long now = nanoClock.getAsLong();
        if (now - openUntilNanos < 0 || trialInFlight) {
            throw new HawkbitUnavailableException("hawkBit unavailable: circuit breaker open after "
                    + consecutiveFailures + " consecutive failed calls; " + operation + " not attempted");
        }
        trialInFlight = true;
        return true;
    }

    private synchronized void succeeded() {
        consecutiveFailures = 0;
        open = false;
        trialInFlight = false;
    }

    private synchronized void failed() {
        consecutiveFailures++;
        trialInFlight = false;
        if (open || consecutiveFailures >= threshold) {
            open = true;
            openUntilNanos = nanoClock.getAsLong() + openDelay.toNanos();
        }
    }

    private synchronized void released(boolean trial) {
        if (trial) {
            trialInFlight = false;
        }
    }

    private void pause(String operation, int retryNo, Transient cause) {
        long base = retryDelay.toMillis() << Math.min(retryNo - 1, 20);
        long capped = Math.min(base, retryMaxDelay.toMillis());
        // +/-50 % jitter so that many callers do not retry in lockstep
        long jittered = capped <= 0 ? 0 : capped / 2 + ThreadLocalRandom.current().nextLong(capped + 1);
        try {
            sleeper.sleep(Duration.ofMillis(jittered));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed();
            throw new HawkbitUnavailableException("hawkBit unavailable: " + operation
                    + " interrupted while waiting to retry; last: " + cause.getMessage(), cause);
        }
    }
}
