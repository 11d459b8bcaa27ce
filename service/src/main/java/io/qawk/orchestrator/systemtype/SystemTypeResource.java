package io.qawk.orchestrator.systemtype;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Context;

import java.util.List;

@Path("/qawk/v1/systemtypes")
@Produces(MediaType.APPLICATION_JSON)
public class SystemTypeResource {

    @Inject
    SystemTypeService service;

    @Inject
    DefaultGroupKey defaultGroupKey;

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

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public SystemTypeView replace(@PathParam("id") long id, SystemTypeRequest request) {
        return view(service.replace(id, request));
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
