package io.qawk.orchestrator.ui;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import java.net.URI;

/** {@code /} leads to the Orchestrator screen at {@code /ui/} (which asks for a login itself). */
@Path("/")
public class RootRedirect {

    @GET
    public Response root() {
        return Response.seeOther(URI.create("/ui/")).build();
    }
}
