package io.qawk.orchestrator.common;

/** The request is valid but clashes with the current state (duplicate name, object in use, command not allowed now); 409. */
public class ConflictException extends RuntimeException {

    public ConflictException(String message) {
        super(message);
    }
}
