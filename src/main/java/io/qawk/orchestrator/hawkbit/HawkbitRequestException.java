package io.qawk.orchestrator.hawkbit;

/** hawkBit refused a request (4xx other than a missing target): the request is wrong, retrying will not help. */
public class HawkbitRequestException extends HawkbitException {

    private final int status;

    public HawkbitRequestException(int status, String message) {
        super(message, null);
        this.status = status;
    }

    /** HTTP status hawkBit answered (or the one Qawk chose for a check it made itself, e.g. 409 incomplete set). */
    public int status() {
        return status;
    }
}
