package io.qawk.orchestrator.hawkbit;

/** Base of everything the hawkBit gateway throws. Unchecked. Messages never hold credentials. */
public abstract class HawkbitException extends RuntimeException {

    protected HawkbitException(String message, Throwable cause) {
        super(message, cause);
    }
}
