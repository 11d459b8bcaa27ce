package io.qawk.orchestrator.hawkbit;

/** hawkBit refused a request (4xx other than a missing target): the request is wrong, retrying will not help. */
public class HawkbitRequestException extends HawkbitException {

    private final int status;
    private final String errorCode;
    private final String reason;

    /**
     * @param errorCode hawkBit's {@code errorCode} of the answer, null when it sent none
     * @param reason    hawkBit's own words for it (or Qawk's, for a check it made itself), short; null: none
     */
    public HawkbitRequestException(int status, String errorCode, String reason, String message) {
        super(message, null);
        this.status = status;
        this.errorCode = errorCode;
        this.reason = reason;
    }

    /** HTTP status hawkBit answered (or the one Qawk chose for a check it made itself, e.g. 409 incomplete set). */
    public int status() {
        return status;
    }

    /** hawkBit's {@code errorCode}, or null. */
    public String errorCode() {
        return errorCode;
    }

    /** {@code <status> <hawkBit's reason>}, e.g. {@code 404 distribution set not found}: what operators are shown. */
    public String statusAndReason() {
        return reason == null || reason.isBlank() ? "HTTP " + status : status + " " + reason;
    }

    /** What this answer means: see {@link HawkbitAnswer}. */
    public HawkbitAnswer answer() {
        return HawkbitAnswer.of(status, errorCode);
    }
}
