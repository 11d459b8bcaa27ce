package io.qawk.orchestrator.systemtype;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qawk.orchestrator.common.Updates;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Context;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;

import java.util.List;
import java.util.Map;

@Path("/qawk/v1/systemtypes")
@Produces(MediaType.APPLICATION_JSON)
public class SystemTypeResource {

    @Inject
    SystemTypeService service;

    /** A type's components are matched by their componentType. */
    private static final Map<String, String> KEYED = Map.of("components", "componentType");

    @Inject
    DefaultGroupKey defaultGroupKey;

    @Inject
    ObjectMapper json;

    @GET
    public List<SystemTypeView> list() {
        return service.list().stream().map(this::view).toList();
    }

    @GET
    @Path("{id}")
    public SystemTypeView get(@PathParam("id") long id) {
        return view(service.get(id));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(SystemTypeRequest request, @Context UriInfo uri) {
        SystemType created = service.create(request);
        return Response.created(uri.getAbsolutePathBuilder().path(String.valueOf(created.id)).build())
                .entity(view(created)).build();
    }

    /**
     * Changes the type: a field the body leaves out keeps its value, a component given again (by its
     * {@code componentType}) keeps the fields it leaves out; {@code "rules": []} or {@code null} clears.
     */
    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public SystemTypeView replace(@PathParam("id") long id, @RequestBody(required = true, content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SystemTypeRequest.class)))
            JsonNode body) throws JsonProcessingException {
        ObjectNode given = Updates.checked(json, body, SystemTypeRequest.class);
        return view(service.update(id, stored -> read(Updates.put(json.valueToTree(stored), given, KEYED))));
    }

    /** Changes the fields the JSON Merge Patch (RFC 7396) names, e.g. {@code {"guard": "hold"}}; {@code null} clears. */
    @PATCH
    @Path("{id}")
    @Consumes(Updates.MERGE_PATCH)
    public SystemTypeView patch(@PathParam("id") long id, @RequestBody(required = true, content = @Content(
            mediaType = Updates.MERGE_PATCH, schema = @Schema(implementation = SystemTypeRequest.class)))
            JsonNode body) throws JsonProcessingException {
        ObjectNode given = Updates.checked(json, body, SystemTypeRequest.class);
        return view(service.update(id, stored -> read(Updates.patch(json.valueToTree(stored), given, KEYED))));
    }

    private SystemTypeRequest read(ObjectNode merged) {
        try {
            return json.treeToValue(merged, SystemTypeRequest.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored system type merged with a checked body cannot be read", e);
        }
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") long id) {
        service.delete(id);
        return Response.noContent().build();
    }

    private SystemTypeView view(SystemType t) {
        return SystemTypeView.of(t, defaultGroupKey.key());
    }
}
