package io.qawk.orchestrator.manifest;

import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.hawkbit.DistributionSetPage;
import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/**
 * hawkBit's distribution sets by {@code name:version}, for whoever writes a manifest (the screen's "New manifest"
 * form): read-only, asked of hawkBit at each call, so a set uploaded a moment ago is there.
 */
@Path("/qawk/v1/distributionsets")
@Produces(MediaType.APPLICATION_JSON)
public class DistributionSetResource {

    static final int MAX_LIMIT = 500;
    static final int MAX_QUERY = 128;

    @Inject
    HawkbitGateway hawkbit;

    /** Sets whose name contains {@code q} (case-insensitive; all when blank), by name, newest first within a name. */
    @GET
    public Page list(@QueryParam("q") String q, @QueryParam("limit") String limitText) {
        FieldErrors errors = new FieldErrors();
        int limit = errors.whole(limitText, "limit", 100);
        errors.check(limit >= 1 && limit <= MAX_LIMIT, "limit", "must be between 1 and " + MAX_LIMIT);
        errors.check(q == null || q.length() <= MAX_QUERY, "q", "must be at most " + MAX_QUERY + " characters");
        errors.throwIfAny();
        DistributionSetPage page = hawkbit.distributionSets(q == null || q.isBlank() ? null : q.strip(), limit);
        return new Page(page.total(), page.content().stream().map(SetView::of).toList());
    }

    /** {@code total} sets match; {@code content} holds the first of them. */
    public record Page(long total, List<SetView> content) {
    }

    /** A set: {@code label} is {@code name:version}, as manifests and YAML name it; incomplete sets cannot be assigned. */
    public record SetView(long id, String name, String version, String label, boolean complete) {

        static SetView of(DistributionSetRef s) {
            return new SetView(s.id(), s.name(), s.version(), s.label(), s.complete());
        }
    }
}
