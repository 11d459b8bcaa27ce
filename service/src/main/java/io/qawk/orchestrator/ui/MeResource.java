package io.qawk.orchestrator.ui;

import io.quarkus.oidc.IdTokenCredential;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.util.List;

/**
 * Who is asking, for the Orchestrator screen: the user, the name to show, their roles, whether the API lets them
 * change things, and where to sign out when they signed in through the identity provider. {@code canWrite} follows the
 * same policy that guards the API's writes, so the page hides exactly the buttons the API would refuse (the API still
 * refuses them on its own).
 */
@Path("/qawk/v1/me")
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {

    @Inject
    SecurityIdentity identity;

    @ConfigProperty(name = "quarkus.http.auth.policy.writers.roles-allowed", defaultValue = "admin")
    List<String> writerRoles;

    @ConfigProperty(name = "quarkus.oidc.logout.path", defaultValue = "/ui/logout")
    String logoutPath;

    @GET
    public Me me() {
        List<String> roles = identity.getRoles().stream().sorted().toList();
        String user = identity.isAnonymous() ? null : identity.getPrincipal().getName();
        String name = user;
        String signOut = null;
        if (identity.getPrincipal() instanceof JsonWebToken token) {
            name = displayName(token, user);
            signOut = identity.getCredential(IdTokenCredential.class) != null ? logoutPath : null; // the code flow's
        }
        return new Me(user, name, roles, !identity.isAnonymous() && roles.stream().anyMatch(writerRoles::contains),
                signOut);
    }

    private static String displayName(JsonWebToken token, String user) {
        String name = token.getClaim("name");
        if (name != null && !name.isBlank()) {
            return name;
        }
        String given = token.getClaim("given_name");
        String family = token.getClaim("family_name");
        String both = ((given == null ? "" : given) + " " + (family == null ? "" : family)).strip();
        return both.isEmpty() ? user : both;
    }

    /** The answer of {@code GET /qawk/v1/me}; {@code signOut} is the path that ends a provider session, or null. */
    public record Me(String user, String name, List<String> roles, boolean canWrite, String signOut) {
    }
}
