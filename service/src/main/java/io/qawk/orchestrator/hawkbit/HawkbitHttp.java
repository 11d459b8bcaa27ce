package io.qawk.orchestrator.hawkbit;

import java.util.Map;

/**
 * The low layer: one HTTP exchange with hawkBit's Management API, no retries, no interpretation of the status.
 * Paths are relative to {@code /rest/v1}, with path segments already encoded; query values are raw and encoded here.
 */
interface HawkbitHttp {

    /** GET; throws {@link TransportFailure} when no HTTP answer arrived (connect error, timeout, reset). */
    Reply get(String path, Map<String, String> query);

    /** POST of a JSON body; same failure contract as {@link #get}. */
    Reply post(String path, String jsonBody);

    /** An HTTP answer of any status; {@code body} is empty (never null) when hawkBit sent none. */
    record Reply(int status, String body) {
        boolean isSuccess() {
            return status >= 200 && status < 300;
        }

        boolean hasBody() {
            return status != 204 && !body.isBlank();
        }
    }

    /** No HTTP answer. The message names the operation and cause, never credentials. */
    final class TransportFailure extends RuntimeException {
        TransportFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
