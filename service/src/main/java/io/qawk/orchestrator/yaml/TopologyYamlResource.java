package io.qawk.orchestrator.yaml;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;


/** System types as Mender topologies: {@code POST …/systemtypes/import}, {@code GET …/systemtypes/{id}/topology.yaml}. */
@Path("/qawk/v1/systemtypes")
public class TopologyYamlResource {

    @Inject
    YamlImport yaml;

    @POST
    @Path("import")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "201", description = "Created",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ImportResult.class)))
    @APIResponse(responseCode = "200", description = "Updated, or unchanged",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ImportResult.class)))
    public Response importTopology(byte[] body, @Context HttpHeaders headers, @Context UriInfo uri) {
        return YamlMediaTypes.importAnswer(body, headers, uri, "/qawk/v1/systemtypes", yaml::importTopology);
    }

    @GET
    @Path("{id}/topology.yaml")
    @Produces(YamlWriting.MEDIA_TYPE)
    public String export(@PathParam("id") long id) {
        return yaml.exportTopology(id);
    }
}
