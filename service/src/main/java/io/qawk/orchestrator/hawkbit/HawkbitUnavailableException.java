package io.qawk.orchestrator.hawkbit;

/**
 * hawkBit could not be used: not configured, unreachable, too slow, 5xx after retries, open circuit breaker, or an
 * answer that is not what its API promises. Says nothing about any device: callers retry later.
 */
public class HawkbitUnavailableException extends HawkbitException {

    public HawkbitUnavailableException(String message) {
        super(message, null);
    }

    public HawkbitUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
