package io.qawk.orchestrator.hawkbit;

/**
 * What a hawkBit answer means for the caller, decided in this one place: worth retrying, Qawk not let in, or a
 * refusal of the request itself. Only a refusal says something about what was asked for (a set, some targets);
 * the other two say only that hawkBit cannot be used right now, never that a device failed.
 *
 * <table>
 *   <caption>hawkBit's answers</caption>
 *   <tr><th>answer</th><th>kind</th><th>why</th></tr>
 *   <tr><td>2xx</td><td>{@link #OK}</td><td></td></tr>
 *   <tr><td>5xx, 408, 429, 423</td><td>{@link #RETRY}</td><td>hawkBit is busy, broken or locked: later may work</td></tr>
 *   <tr><td>409 {@code …repo.concurrentModification}</td><td>{@link #RETRY}</td><td>a race inside hawkBit</td></tr>
 *   <tr><td>1xx, 3xx</td><td>{@link #RETRY}</td><td>not hawkBit answering (a proxy, a wrong URL)</td></tr>
 *   <tr><td>401; 403 without error code or {@code …insufficientpermission}</td><td>{@link #NOT_ALLOWED}</td>
 *       <td>Qawk's credentials or rights: an operator must act, no device is concerned</td></tr>
 *   <tr><td>any other 4xx (404 set deleted, 400 incomplete or incompatible set, 403 quota, 410 …)</td>
 *       <td>{@link #REFUSED}</td><td>the request is wrong; sending it again will not help</td></tr>
 * </table>
 */
public enum HawkbitAnswer {
    /** hawkBit did it. */
    OK,
    /** Transient: hawkBit is unavailable for now; try again later. */
    RETRY,
    /** hawkBit does not let Qawk do this: its configuration, not the request's content. */
    NOT_ALLOWED,
    /** hawkBit refuses this request for what it asks; retrying the same request will not help. */
    REFUSED;

    static final String CONCURRENT_MODIFICATION = "hawkbit.server.error.repo.concurrentModification";
    static final String INSUFFICIENT_PERMISSION = "hawkbit.server.error.insufficientpermission";

    /** The kind of an answer with this HTTP status and hawkBit {@code errorCode} (null when the body has none). */
    public static HawkbitAnswer of(int status, String errorCode) {
        if (status >= 200 && status < 300) {
            return OK;
        }
        if (status >= 500 || status < 400 || status == 408 || status == 423 || status == 429) {
            return RETRY;
        }
        if (status == 409 && CONCURRENT_MODIFICATION.equalsIgnoreCase(errorCode)) {
            return RETRY;
        }
        if (status == 401 || status == 407) {
            return NOT_ALLOWED;
        }
        if (status == 403 && (errorCode == null || errorCode.isBlank() || INSUFFICIENT_PERMISSION.equalsIgnoreCase(errorCode))) {
            return NOT_ALLOWED;
        }
        return REFUSED;
    }

    /** Whether a gateway call should be tried again (with backoff) after this answer. */
    public boolean retry() {
        return this == RETRY;
    }
}
