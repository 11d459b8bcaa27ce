package io.qawk.orchestrator.common;

/** The caller may not do this, whatever the state, and the words say which rule refuses it; 403. */
public class RefusedException extends RuntimeException {

    public RefusedException(String message) {
        super(message);
    }
}
