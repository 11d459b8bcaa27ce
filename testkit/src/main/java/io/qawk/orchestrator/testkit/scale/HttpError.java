package io.qawk.orchestrator.testkit.scale;

/** An answer other than 2xx, thrown where the problem is found and turned into hawkBit's error body by {@link HttpFront}. */
final class HttpError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final int status;
    final String errorCode;

    HttpError(int status, String errorCode, String message) {
        super(message, null, false, false);
        this.status = status;
        this.errorCode = errorCode;
    }

    static HttpError notFound(String what, String id) {
        return new HttpError(404, "hawkbit.server.error.repo.entitiyNotFound",
                what + " with given identifier {" + id + "} does not exist.");
    }

    static HttpError badRequest(String errorCode, String message) {
        return new HttpError(400, errorCode, message);
    }
}
