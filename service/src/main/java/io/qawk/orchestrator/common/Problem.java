package io.qawk.orchestrator.common;

import com.fasterxml.jackson.annotation.JsonInclude;
import jakarta.ws.rs.core.Response;

import java.util.List;

/** An RFC 9457 problem document, the body of every error this service answers. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(String type, String title, int status, String detail, String instance, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public static Response response(Response.Status status, String detail, String instance, List<FieldError> errors) {
        Problem body = new Problem("about:blank", status.getReasonPhrase(), status.getStatusCode(), detail, instance, errors);
        return Response.status(status).type(MEDIA_TYPE).entity(body).build();
    }

    public static Response response(int status, String title, String detail, String instance) {
        Problem body = new Problem("about:blank", title, status, detail, instance, List.of());
        return Response.status(status).type(MEDIA_TYPE).entity(body).build();
    }
}
