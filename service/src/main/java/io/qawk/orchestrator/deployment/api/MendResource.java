package io.qawk.orchestrator.deployment.api;

import io.qawk.orchestrator.common.Actors;
import io.qawk.orchestrator.deployment.DeploymentReads;
import io.qawk.orchestrator.deployment.SystemMend;
import io.qawk.orchestrator.window.CentreWindows;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.time.Clock;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * Mends a broken system: {@code POST /qawk/v1/systemtypes/{id}/systems/{system}/mend} creates a draft deployment of
 * that system alone with the manifest that mends it ({@link SystemMend}), answered 201 as {@code POST
 * /qawk/v1/systemdeployments} answers, with its {@code Location}. Its plan previews it; {@code …/start} starts it.
 */
@Path("/qawk/v1/systemtypes/{id}/systems/{system}/mend")
@Produces(MediaType.APPLICATION_JSON)
public class MendResource {

    @Inject
    SystemMend mends;

    @Inject
    DeploymentReads reads;

    @Inject
    SecurityIdentity identity;

    @Inject
    Clock clock;

    @POST
    @APIResponse(responseCode = "201", description = "Created: the draft deployment that mends the system",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DeploymentView.class)))
    public Response mend(@PathParam("id") long id, @PathParam("system") String system, @Context UriInfo uri) {
        SystemDeployment d = mends.mend(id, system, Actors.of(identity));
        return Response.created(uri.getBaseUriBuilder().path("qawk/v1/systemdeployments/{id}").build(d.id))
                .entity(view(d.id)).build();
    }

    DeploymentView view(long deploymentId) {
        DeploymentReads.Deployment read = reads.brief(deploymentId);
        return DeploymentView.of(read, CentreWindows.of(read.deployment().windows, clock.instant()));
    }
}
