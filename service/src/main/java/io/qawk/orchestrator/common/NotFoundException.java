package io.qawk.orchestrator.common;

/** The addressed object does not exist; answered 404. */
public class NotFoundException extends RuntimeException {

    public NotFoundException(String what, Object id) {
        super(what + " " + id + " does not exist");
    }
}
