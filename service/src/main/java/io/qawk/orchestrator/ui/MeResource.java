package io.qawk.orchestrator.ui;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.List;

/**
 * Who is asking, for the Orchestrator screen: the user, their roles, and whether the API lets them change things.
 * {@code canWrite} follows the same policy that guards the API's writes, so the page hides exactly the buttons the API
 * would refuse (the API still refuses them on its own).
 */
@Path("/qawk/v1/me")
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {

    @Inject
    SecurityIdentity identity;

    @ConfigProperty(name = "quarkus.http.auth.policy.writers.roles-allowed", defaultValue = "admin")
    List<String> writerRoles;

    @GET
    public Me me() {
        List<String> roles = identity.getRoles().stream().sorted().toList();
        return new Me(identity.isAnonymous() ? null : identity.getPrincipal().getName(), roles,
                !identity.isAnonymous() && roles.stream().anyMatch(writerRoles::contains));
    }

    /** The answer of {@code GET /qawk/v1/me}. */
    public record Me(String user, List<String> roles, boolean canWrite) {
    }
}
