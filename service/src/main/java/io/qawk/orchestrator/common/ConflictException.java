package io.qawk.orchestrator.common;

/**
 * The request is valid but clashes with the current state (duplicate name, object in use, command not allowed now); 409.
 * {@code retryAfterSeconds}: when the clash passes by itself (a rollback under way ends), how long to wait before
 * trying again, sent as {@code Retry-After}; null when only a person's change ends it.
 */
public class ConflictException extends RuntimeException {

    private final Integer retryAfterSeconds;

    public ConflictException(String message) {
        this(message, null);
    }

    public ConflictException(String message, Integer retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
