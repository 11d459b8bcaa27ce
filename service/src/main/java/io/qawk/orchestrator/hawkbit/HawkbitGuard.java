package io.qawk.orchestrator.hawkbit;

import io.smallrye.faulttolerance.api.CircuitBreakerState;
import io.smallrye.faulttolerance.api.CustomBackoffStrategy;
import io.smallrye.faulttolerance.api.TypedGuard;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Retries, circuit breaker and the time limit of an attempt, for every call to hawkBit, through SmallRye Fault
 * Tolerance's programmatic {@link TypedGuard} (the annotations cannot take their values from {@link HawkbitConfig} at
 * run time, and tests build gateways with other settings).
 * <p>
 * Two guards, one inside the other, because the breaker counts <em>calls</em> whose attempts all failed, not single
 * attempts: in one MicroProfile guard the breaker sits inside the retry, so it would open after a few attempts of one
 * call and the retry would then spin against the open breaker.
 * <ul>
 * <li>inner: {@code @Retry} on {@link Transient} (transport error, 5xx, 408 …; a 429 is waited out by the client, not
 * retried here) and on the attempt's {@code @Timeout}
 * (connect + answer timeout + 1 s, a bound for an answer that trickles in), with {@link Backoff}: doubling from
 * {@code retry-delay} up to {@code retry-max-delay}, ±50 % jitter;</li>
 * <li>outer: {@code @CircuitBreaker} that opens after {@code circuit-breaker-threshold} consecutive failed calls
 * (a window of that many calls, all failed), fails calls at once for {@code circuit-breaker-delay}, then lets one
 * trial call through. Anything else an attempt throws (hawkBit answered, e.g. 404 or 400) passes at once and counts
 * as a working hawkBit.</li>
 * </ul>
 * What gives up becomes {@link HawkbitUnavailableException}.
 */
final class HawkbitGuard {

    /** Thrown by an attempt when retrying may help; the message explains the failure (no secrets). */
    static final class Transient extends RuntimeException {
        Transient(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Every attempt of a call failed: what the breaker counts. */
    private static final class GaveUp extends RuntimeException {
        GaveUp(Throwable last) {
            super(last.getMessage(), last, false, false);
        }
    }

    private final int threshold;
    private final long attemptMillis;
    private final TypedGuard<Object> retry;
    private final TypedGuard<Object> breaker;
    private volatile CircuitBreakerState state = CircuitBreakerState.CLOSED;

    HawkbitGuard(HawkbitConfig config) {
        int maxRetries = Math.max(0, config.maxRetries());
        long delay = Math.max(0, config.retryDelay().toMillis());
        long maxDelay = Math.max(0, config.retryMaxDelay().toMillis());
        this.threshold = Math.max(1, config.circuitBreakerThreshold());
        this.attemptMillis = config.connectTimeout().toMillis() + config.readTimeout().toMillis() + 1000;
        this.retry = TypedGuard.create(Object.class)
                .withRetry().maxRetries(maxRetries).delay(delay, ChronoUnit.MILLIS).jitter(0, ChronoUnit.MILLIS)
                .maxDuration(1, ChronoUnit.DAYS) // the attempts and delays bound a call, not a total
                .retryOn(List.of(Transient.class, TimeoutException.class))
                .withCustomBackoff().strategy(() -> new Backoff(delay, maxDelay)).done()
                .done()
                .withTimeout().duration(attemptMillis, ChronoUnit.MILLIS).done()
                .build();
        this.breaker = TypedGuard.create(Object.class)
                .withCircuitBreaker().requestVolumeThreshold(threshold).failureRatio(1.0).successThreshold(1)
                .delay(Math.max(0, config.circuitBreakerDelay().toMillis()), ChronoUnit.MILLIS)
                .failOn(GaveUp.class).onStateChange(s -> state = s)
                .done()
                .build();
    }

    /** Runs {@code attempt} with retries and the breaker; throws {@link HawkbitUnavailableException} when it gives up. */
    @SuppressWarnings("unchecked")
    <T> T call(String operation, Supplier<T> attempt) {
        AtomicInteger attempts = new AtomicInteger();
        try {
            return (T) breaker.call(() -> {
                try {
                    return retry.call(() -> {
                        attempts.incrementAndGet();
                        return attempt.get();
                    });
                } catch (Transient | TimeoutException e) {
                    throw new GaveUp(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new GaveUp(e);
                }
            });
        } catch (GaveUp e) {
            Throwable last = e.getCause();
            if (last instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
                Thread.currentThread().interrupt();
                throw new HawkbitUnavailableException("hawkBit unavailable: " + operation
                        + " interrupted while waiting to retry; last: " + messageOf(operation, last), last);
            }
            throw new HawkbitUnavailableException("hawkBit unavailable: " + operation + " failed after " + attempts.get()
                    + " attempt(s); last: " + messageOf(operation, last), last);
        } catch (CircuitBreakerOpenException e) {
            throw new HawkbitUnavailableException("hawkBit unavailable: circuit breaker open after " + threshold
                    + " consecutive failed calls; " + operation + " not attempted");
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) { // the guards declare it; attempts throw only unchecked exceptions
            throw new HawkbitUnavailableException("hawkBit unavailable: " + operation + ": " + e, e);
        }
    }

    /** Whether the breaker is open (or half-open, waiting for its trial call): for tests and diagnostics. */
    boolean isOpen() {
        return state != CircuitBreakerState.CLOSED;
    }

    private String messageOf(String operation, Throwable last) {
        if (last instanceof TimeoutException) {
            return operation + ": no complete answer within " + attemptMillis + " ms";
        }
        if (last instanceof InterruptedException) {
            return operation + ": interrupted";
        }
        return last.getMessage();
    }

    /** Delay before retry n (1, 2, …): {@code delay·2^(n-1)}, at most {@code maxDelay}, then ±50 % jitter. */
    static final class Backoff implements CustomBackoffStrategy {
        private final long delay;
        private final long maxDelay;
        private int retries;

        Backoff(long delay, long maxDelay) {
            this.delay = delay;
            this.maxDelay = maxDelay;
        }

        @Override
        public long nextDelayInMillis(Throwable cause) {
            retries++;
            long base = delay << Math.min(retries - 1, 20);
            long capped = Math.min(base, maxDelay);
            // +/-50 % so that many callers do not retry in lockstep
            return capped <= 0 ? 0 : capped / 2 + ThreadLocalRandom.current().nextLong(capped + 1);
        }
    }
}
