package io.qawk.orchestrator.manifest;

import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;

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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.util.List;
import java.util.Map;

@Path("/qawk/v1/manifests")
@Produces(MediaType.APPLICATION_JSON)
public class ManifestResource {

    @Inject
    ManifestService service;

    @Inject
    CensusManifests fromCensus;

    @Inject
    ObjectMapper json;

    /** A manifest's components are matched by their componentType. */
    private static final Map<String, String> KEYED = Map.of("components", "componentType");

    @GET
    public List<ManifestView> list(@QueryParam("systemTypeId") Long systemTypeId) {
        return service.list(systemTypeId).stream().map(ManifestView::of).toList();
    }

    @GET
    @Path("{id}")
    public ManifestView get(@PathParam("id") long id) {
        return ManifestView.of(service.get(id));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(ManifestRequest request, @Context UriInfo uri) {
        Manifest created = service.create(request);
        return Response.created(uri.getAbsolutePathBuilder().path(String.valueOf(created.id)).build())
                .entity(ManifestView.of(created)).build();
    }

    /** Saves what a group of systems runs (a mix of the type's census) as a manifest: a baseline. */
    @POST
    @Path("from-census")
    @Consumes(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "201", description = "Created: the manifest naming what they run",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ManifestView.class)))
    public Response createFromCensus(CensusManifestRequest request, @Context UriInfo uri) {
        Manifest created = fromCensus.create(request);
        return Response.created(uri.getBaseUriBuilder().path(ManifestResource.class).path(String.valueOf(created.id))
                .build()).entity(ManifestView.of(created)).build();
    }

    /**
     * Changes the manifest: a field the body leaves out keeps its value, a component given again (by its
     * {@code componentType}) keeps the fields it leaves out.
     */
    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public ManifestView replace(@PathParam("id") long id, @RequestBody(required = true, content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ManifestRequest.class)))
            JsonNode body) throws JsonProcessingException {
        ObjectNode given = Updates.checked(json, body, ManifestRequest.class);
        return ManifestView.of(service.update(id, stored -> read(Updates.put(json.valueToTree(stored), given, KEYED))));
    }

    /** Changes the fields the JSON Merge Patch (RFC 7396) names; {@code null} clears (a component's {@code verify}). */
    @PATCH
    @Path("{id}")
    @Consumes(Updates.MERGE_PATCH)
    public ManifestView patch(@PathParam("id") long id, @RequestBody(required = true, content = @Content(
            mediaType = Updates.MERGE_PATCH, schema = @Schema(implementation = ManifestRequest.class)))
            JsonNode body) throws JsonProcessingException {
        ObjectNode given = Updates.checked(json, body, ManifestRequest.class);
        return ManifestView.of(service.update(id, stored -> read(Updates.patch(json.valueToTree(stored), given, KEYED))));
    }

    private ManifestRequest read(ObjectNode merged) {
        try {
            return json.treeToValue(merged, ManifestRequest.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored manifest merged with a checked body cannot be read", e);
        }
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") long id) {
        service.delete(id);
        return Response.noContent().build();
    }
}
