package io.qawk.orchestrator.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.qawk.orchestrator.hawkbit.HawkbitRequestException;
import io.qawk.orchestrator.hawkbit.HawkbitUnavailableException;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.PersistenceException;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
        Response problem = Problem.response(Response.Status.CONFLICT, e.getMessage(), path(uri), List.of());
        return e.retryAfterSeconds() == null ? problem
                : Response.fromResponse(problem).header("Retry-After", String.valueOf(e.retryAfterSeconds())).build();
    }

    @ServerExceptionMapper
    public Response refused(RefusedException e, UriInfo uri) {
        return Problem.response(Response.Status.FORBIDDEN, e.getMessage(), path(uri), List.of());
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

    /** hawkBit refused a request of ours (4xx): not the caller's fault and not a bug here; a 502 that says so. */
    @ServerExceptionMapper
    public Response hawkbitRefused(HawkbitRequestException e, UriInfo uri) {
        LOG.warnf("hawkBit refused a request while answering %s: %s", path(uri), e.getMessage());
        return Problem.response(502, "Bad Gateway", "hawkBit refused a request of the service: " + e.getMessage(),
                path(uri));
    }

    @ServerExceptionMapper
    public Response violations(ConstraintViolationException e, UriInfo uri) {
        List<FieldError> errors = e.getConstraintViolations().stream()
                .map(v -> new FieldError(lastNodes(v.getPropertyPath().toString()), v.getMessage()))
                .collect(Collectors.toList());
        return Problem.response(Response.Status.BAD_REQUEST, "the request is invalid", path(uri), errors);
    }

    /**
     * The database refused a write the checks let through, e.g. two requests creating the same name at the same
     * moment (both pass the name check, one loses at the unique constraint): a 409 (or 400), not a 500.
     */
    @ServerExceptionMapper
    public Response persistence(PersistenceException e, UriInfo uri) {
        return database(e, uri).orElseGet(() -> bug(e, uri));
    }

    /** Qawk's own database is away (stopped, restarting): 503 with {@code Retry-After}, not a bug, nothing changed. */
    static Response databaseUnreachable(Throwable e, UriInfo uri) {
        LOG.warnf("Qawk's database is unreachable while answering %s: %s", path(uri), e.getMessage());
        return Response.fromResponse(Problem.response(Response.Status.SERVICE_UNAVAILABLE, DatabaseUnreachable.DETAIL,
                path(uri), List.of())).header("Retry-After", String.valueOf(DatabaseUnreachable.RETRY_AFTER_SECONDS))
                .build();
    }

    @ServerExceptionMapper(priority = 0)
    public Response unstorableText(UnstorableTextException e, UriInfo uri) {
        String field = jsonPath(e);
        return Problem.response(Response.Status.BAD_REQUEST, "a text value cannot be stored: "
                        + (field.isEmpty() ? "" : field + " ") + e.problem(), path(uri),
                List.of(new FieldError(field, e.problem())));
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
    public Response web(WebApplicationException e, UriInfo uri, Request request) {
        if (e.getCause() instanceof UnstorableTextException t) {
            return unstorableText(t, uri);
        }
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
        String detail = status == 415 ? "unsupported content type; send " + (request != null
                && "PATCH".equals(request.getMethod()) ? Updates.MERGE_PATCH + " (a JSON Merge Patch, RFC 7396)"
                : "application/json")
                : status == 405 ? "this method is not allowed here"
                : status == 406 ? "cannot answer in the requested media type"
                : e.getMessage();
        return Problem.response(status, type.getReasonPhrase(), detail, path(uri));
    }

    @ServerExceptionMapper
    public Response bug(Exception e, UriInfo uri) {
        if (DatabaseUnreachable.in(e)) {
            return databaseUnreachable(e, uri);
        }
        Optional<Response> refused = database(e, uri);
        if (refused.isPresent()) {
            return refused.get();
        }
        if (e instanceof IOException) {
            // reading the body failed: the client stalled past the timeout or went away; nobody is listening
            LOG.debugf("request body of %s could not be read: %s", path(uri), e.getMessage());
            return Problem.response(Response.Status.BAD_REQUEST, "the request body could not be read completely "
                    + "(the client stalled or closed the connection)", path(uri), List.of());
        }
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            if (cause.getCause() instanceof HawkbitUnavailableException h) {
                return hawkbitDown(h, uri);
            }
            if (cause.getCause() instanceof OptimisticLockException o) { // found at the commit: the same conflict
                return concurrentChange(o, uri);
            }
            cause = cause.getCause();
        }
        LOG.error("Unexpected failure answering " + path(uri), e);
        return Problem.response(500, "Internal Server Error",
                "an unexpected error occurred; it has been logged", path(uri));
    }

    /** What a unique constraint protects, in the words of the API. */
    private static final Map<String, String> UNIQUE = Map.of(
            "system_type_name_unique", "a system type with this name already exists",
            "manifest_name_unique", "a manifest with this name already exists",
            "fleet_name_unique", "a channel with this name already exists",
            "system_run_unique", "this system already has a run in this deployment");

    /**
     * A database refusal anywhere in the cause chain, as an answer: unique violation (23505) 409, foreign key
     * violation (23503) 409, a value the database cannot hold (class 22) 400. Empty for anything else.
     */
    static Optional<Response> database(Throwable e, UriInfo uri) {
        if (DatabaseUnreachable.in(e)) {
            return Optional.of(databaseUnreachable(e, uri));
        }
        String constraint = null;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof org.hibernate.exception.ConstraintViolationException c && c.getConstraintName() != null) {
                constraint = c.getConstraintName();
            }
            if (!(t instanceof SQLException sql) || sql.getSQLState() == null) {
                continue;
            }
            String state = sql.getSQLState();
            String message = String.valueOf(sql.getMessage());
            if (constraint == null) {
                constraint = UNIQUE.keySet().stream().filter(message::contains).findFirst().orElse(null);
            }
            if (state.equals("23505")) {
                String what = constraint == null ? null : UNIQUE.get(constraint.toLowerCase(Locale.ROOT));
                LOG.debugf("unique violation answered 409: %s", message);
                return Optional.of(Problem.response(Response.Status.CONFLICT, (what == null
                        ? "an object with the same unique value already exists" : what)
                        + " (another request stored it at the same time); read the objects again", path(uri), List.of()));
            }
            if (state.equals("23503")) {
                LOG.debugf("foreign key violation answered 409: %s", message);
                return Optional.of(Problem.response(Response.Status.CONFLICT, "the request refers to an object that "
                        + "does not exist (any more), or the object is still used by another; read the objects again",
                        path(uri), List.of()));
            }
            if (state.startsWith("22")) {
                String first = message.lines().findFirst().orElse("").replaceFirst("^ERROR: ", "");
                return Optional.of(Problem.response(Response.Status.BAD_REQUEST, "a value cannot be stored: "
                        + abbreviate(first), path(uri), List.of()));
            }
        }
        return Optional.empty();
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
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        return "an object";
    }

    private static String lastNodes(String propertyPath) {
        // "create.request.components[0].match" -> "components[0].match"
        String[] parts = propertyPath.split("\\.");
        return parts.length > 2 ? String.join(".", Arrays.copyOfRange(parts, 2, parts.length)) : propertyPath;
    }

    private static String abbreviate(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > 120 ? s.substring(0, 120) + "…" : s;
    }
}
