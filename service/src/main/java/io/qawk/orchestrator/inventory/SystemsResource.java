package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.systemtype.SystemTypeService;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/** The systems a system type's devices form, as last synced from hawkBit. */
@Path("/qawk/v1/systemtypes/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class SystemsResource {

    static final int MAX_LIMIT = 500;

    @Inject
    SystemsQuery query;

    @Inject
    SystemTypeService types;

    @GET
    @Path("systems")
    public SystemsPage systems(@PathParam("id") long id, @QueryParam("offset") String offsetText,
                               @QueryParam("limit") String limitText, @QueryParam("group") String group) {
        int[] paging = paging(offsetText, limitText);
        int offset = paging[0];
        int limit = paging[1];
        // one transaction and connection for the whole answer: operators' screens poll this
        SystemsQuery.Listing listing = query.listing(id, blankToNull(group), offset, limit)
                .orElseThrow(() -> new NotFoundException("system type", id));
        return new SystemsPage(listing.page().total(), listing.page().content(), listing.problemDevices());
    }

    @GET
    @Path("systems/{system}")
    public SystemDetail system(@PathParam("id") long id, @PathParam("system") String system) {
        types.get(id);
        List<SystemsQuery.SystemDevice> devices = query.devices(id, system);
        if (devices.isEmpty()) {
            throw new NotFoundException("system", "'" + system + "' of system type " + id);
        }
        return new SystemDetail(system, devices.get(0).group(), devices.size(), devices);
    }

    @GET
    @Path("problems")
    public SystemsQuery.Page<SystemsQuery.SystemDevice> problems(@PathParam("id") long id,
                                                                 @QueryParam("offset") String offsetText,
                                                                 @QueryParam("limit") String limitText) {
        types.get(id);
        int[] paging = paging(offsetText, limitText);
        return query.problems(id, paging[0], paging[1]);
    }

    /** {@code offset} (default 0, 0 or more) and {@code limit} (default 50, 1 to the maximum), checked together. */
    static int[] paging(String offsetText, String limitText) {
        FieldErrors errors = new FieldErrors();
        int offset = errors.whole(offsetText, "offset", 0);
        int limit = errors.whole(limitText, "limit", 50);
        errors.check(offset >= 0, "offset", "must be 0 or more");
        errors.check(limit >= 1 && limit <= MAX_LIMIT, "limit", "must be between 1 and " + MAX_LIMIT);
        errors.throwIfAny();
        return new int[] {offset, limit};
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /** The systems list: {@code total} systems, this page's {@code content}, and devices that form no system. */
    public record SystemsPage(long total, List<SystemsQuery.SystemSummary> content, long problemDevices) {
    }

    /** One system and its devices. */
    public record SystemDetail(String system, String group, int devices, List<SystemsQuery.SystemDevice> content) {
    }
}
