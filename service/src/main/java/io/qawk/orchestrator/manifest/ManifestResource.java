package io.qawk.orchestrator.manifest;

import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.Content;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
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

@Path("/qawk/v1/manifests")
@Produces(MediaType.APPLICATION_JSON)
public class ManifestResource {

    @Inject
    ManifestService service;

    @Inject
    CensusManifests fromCensus;

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

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public ManifestView replace(@PathParam("id") long id, ManifestRequest request) {
        return ManifestView.of(service.replace(id, request));
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") long id) {
        service.delete(id);
        return Response.noContent().build();
    }
}
