package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.common.InvalidRequestException;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.systemtype.SystemTypeService;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
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
    public SystemsPage systems(@PathParam("id") long id, @QueryParam("offset") @DefaultValue("0") int offset,
                               @QueryParam("limit") @DefaultValue("50") int limit, @QueryParam("group") String group) {
        checkPaging(offset, limit);
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
                                                                 @QueryParam("offset") @DefaultValue("0") int offset,
                                                                 @QueryParam("limit") @DefaultValue("50") int limit) {
        types.get(id);
        checkPaging(offset, limit);
        return query.problems(id, offset, limit);
    }

    static void checkPaging(int offset, int limit) {
        if (offset < 0) {
            throw new InvalidRequestException("offset", "must be 0 or more");
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new InvalidRequestException("limit", "must be between 1 and " + MAX_LIMIT);
        }
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
