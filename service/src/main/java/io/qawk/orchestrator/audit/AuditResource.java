package io.qawk.orchestrator.audit;

import io.qawk.orchestrator.common.FieldErrors;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * {@code GET /qawk/v1/audit?since=…&actor=…&offset=…&limit=…}: the commands the API carried out, oldest first, each
 * with who gave it and when; {@code since} an ISO-8601 instant ({@code 2026-05-01T12:00:00Z}), {@code actor} a user
 * name.
 */
@Path("/qawk/v1/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    static final int MAX_LIMIT = 500;

    @Inject
    AuditLog log;

    @GET
    public AuditPage list(@QueryParam("since") String sinceText, @QueryParam("actor") String actor,
                          @QueryParam("offset") String offsetText, @QueryParam("limit") String limitText) {
        FieldErrors errors = new FieldErrors();
        Instant since = null;
        if (sinceText != null && !sinceText.isBlank()) {
            try {
                since = Instant.parse(sinceText.strip());
            } catch (DateTimeParseException e) {
                errors.add("since", "must be an ISO-8601 instant such as 2026-05-01T12:00:00Z (got \""
                        + (sinceText.length() > 40 ? sinceText.substring(0, 40) + "…" : sinceText) + "\")");
            }
        }
        int offset = errors.whole(offsetText, "offset", 0);
        int limit = errors.whole(limitText, "limit", 100);
        errors.check(offset >= 0, "offset", "must be 0 or more");
        errors.check(limit >= 1 && limit <= MAX_LIMIT, "limit", "must be between 1 and " + MAX_LIMIT);
        errors.throwIfAny();
        AuditLog.Page<AuditEntry> page = log.page(since, actor == null || actor.isBlank() ? null : actor.strip(),
                offset, limit);
        return new AuditPage(page.total(), page.content().stream().map(e -> new Entry(e.id, e.at, e.actor, e.action,
                e.target, e.method, e.path, e.status, e.detail)).toList());
    }

    /** A page of the listing: how many entries match in all, and this page's. */
    public record AuditPage(long total, List<Entry> content) {
    }

    /**
     * One command: when, who, what ({@code start}, {@code rollback}, {@code create} …), on what, and the request;
     * {@code detail} says why for what the service did on its own (the guard's {@code pause}, {@code cancel}, …).
     */
    public record Entry(long id, Instant at, String actor, String action, String target, String method, String path,
                        int status, String detail) {
    }
}
