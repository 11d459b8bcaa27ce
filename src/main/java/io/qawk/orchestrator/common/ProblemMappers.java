package io.qawk.orchestrator.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.qawk.orchestrator.hawkbit.HawkbitUnavailableException;
import jakarta.persistence.OptimisticLockException;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Turns every failure into an {@code application/problem+json} answer that says what is wrong and where.
 * Nothing here leaks a stack trace; only a genuine bug answers 500, and it is logged.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response invalid(InvalidRequestException e, UriInfo uri) {
        return Problem.response(Response.Status.BAD_REQUEST, e.getMessage(), path(uri), e.errors());
    }

    @ServerExceptionMapper
    public Response notFound(NotFoundException e, UriInfo uri) {
        return Problem.response(Response.Status.NOT_FOUND, e.getMessage(), path(uri), List.of());
    }

    @ServerExceptionMapper
    public Response conflict(ConflictException e, UriInfo uri) {
        return Problem.response(Response.Status.CONFLICT, e.getMessage(), path(uri), List.of());
    }

    @ServerExceptionMapper
    public Response concurrentChange(OptimisticLockException e, UriInfo uri) {
        return Problem.response(Response.Status.CONFLICT,
                "the object was changed by another request at the same time; read it again and retry", path(uri), List.of());
    }

    @ServerExceptionMapper
    public Response hawkbitDown(HawkbitUnavailableException e, UriInfo uri) {
        return Problem.response(Response.Status.SERVICE_UNAVAILABLE,
                "hawkBit cannot be reached right now: " + e.getMessage(), path(uri), List.of());
    }

    @ServerExceptionMapper
    public Response violations(ConstraintViolationException e, UriInfo uri) {
        List<FieldError> errors = e.getConstraintViolations().stream()
                .map(v -> new FieldError(lastNodes(v.getPropertyPath().toString()), v.getMessage()))
                .collect(Collectors.toList());
        return Problem.response(Response.Status.BAD_REQUEST, "the request is invalid", path(uri), errors);
    }

    @ServerExceptionMapper(priority = 1)
    public Response unknownField(UnrecognizedPropertyException e, UriInfo uri) {
        String field = jsonPath(e);
        return Problem.response(Response.Status.BAD_REQUEST, "unknown field '" + e.getPropertyName() + "'",
                path(uri), List.of(new FieldError(field, "is not a known field; known fields: " + e.getKnownPropertyIds())));
    }

    @ServerExceptionMapper(priority = 1)
    public Response wrongType(InvalidFormatException e, UriInfo uri) {
        String field = jsonPath(e);
        String expected = e.getTargetType() == null ? "another type" : simpleType(e.getTargetType());
        return Problem.response(Response.Status.BAD_REQUEST, "a value has the wrong type", path(uri),
                List.of(new FieldError(field, "must be " + expected + " (got " + abbreviate(String.valueOf(e.getValue())) + ")")));
    }

    @ServerExceptionMapper(priority = 2)
    public Response mismatched(MismatchedInputException e, UriInfo uri) {
        String field = jsonPath(e);
        String expected = e.getTargetType() == null ? "of another type" : simpleType(e.getTargetType());
        return Problem.response(Response.Status.BAD_REQUEST, "a value has the wrong type or shape", path(uri),
                List.of(new FieldError(field, "must be " + expected)));
    }

    @ServerExceptionMapper(priority = 3)
    public Response badJson(JsonProcessingException e, UriInfo uri) {
        String where = e.getLocation() == null ? ""
                : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
        String field = e instanceof JsonMappingException m ? jsonPath(m) : "";
        return Problem.response(Response.Status.BAD_REQUEST, "the body is not valid JSON" + where + ": "
                + abbreviate(e.getOriginalMessage()), path(uri),
                field.isEmpty() ? List.of() : List.of(new FieldError(field, "cannot be read")));
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, UriInfo uri) {
        if (e.getCause() instanceof UnrecognizedPropertyException u) {
            return unknownField(u, uri);
        }
        if (e.getCause() instanceof InvalidFormatException f) {
            return wrongType(f, uri);
        }
        if (e.getCause() instanceof MismatchedInputException m) {
            return mismatched(m, uri);
        }
        if (e.getCause() instanceof JsonProcessingException j) {
            return badJson(j, uri);
        }
        Response r = e.getResponse();
        int status = r == null ? 500 : r.getStatus();
        if (status >= 500) {
            LOG.error("Request failed", e);
        }
        Response.StatusType type = r == null ? Response.Status.INTERNAL_SERVER_ERROR : r.getStatusInfo();
        String detail = status == 415 ? "unsupported content type; send application/json"
                : status == 405 ? "this method is not allowed here"
                : status == 406 ? "cannot answer in the requested media type"
                : e.getMessage();
        return Problem.response(status, type.getReasonPhrase(), detail, path(uri));
    }

    @ServerExceptionMapper
    public Response bug(Exception e, UriInfo uri) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            if (cause.getCause() instanceof HawkbitUnavailableException h) {
                return hawkbitDown(h, uri);
            }
            cause = cause.getCause();
        }
        LOG.error("Unexpected failure answering " + path(uri), e);
        return Problem.response(500, "Internal Server Error",
                "an unexpected error occurred; it has been logged", path(uri));
    }

    private static String path(UriInfo uri) {
        return uri == null ? null : "/" + uri.getPath().replaceFirst("^/", "");
    }

    static String jsonPath(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    private static String simpleType(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "a whole number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        return "an object";
    }

    private static String lastNodes(String propertyPath) {
        // "create.request.components[0].match" -> "components[0].match"
        String[] parts = propertyPath.split("\\.");
        return parts.length > 2 ? String.join(".", java.util.Arrays.copyOfRange(parts, 2, parts.length)) : propertyPath;
    }

    private static String abbreviate(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > 120 ? s.substring(0, 120) + "…" : s;
    }
}
