package io.qawk.orchestrator.security;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Decides how a request without credentials is asked for them, and refuses basic auth when it is switched off. It
 * runs before the other mechanisms (basic, and OpenID Connect, which does both bearer tokens and the screen's code
 * flow): the API and the metrics answer 401 with a {@code WWW-Authenticate} naming the ways in that are on (Basic,
 * Bearer), never a redirect to a login page a script cannot follow; the screen ({@code /}, {@code /ui}) is left to
 * the next mechanism, the provider's sign-in page when one is configured, else the browser's Basic prompt.
 * It authenticates nobody itself.
 */
@ApplicationScoped
public class SignInChallenge implements HttpAuthenticationMechanism {

    /** Above OpenID Connect's (set to 2500 in application.properties) and basic auth's (2000). */
    static final int PRIORITY = 3000;

    @Inject
    SignInConfig oidc;

    @ConfigProperty(name = "qawk.basic-auth", defaultValue = "true")
    boolean basicAuth;

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        String authorization = context.request().getHeader("Authorization");
        if (!basicAuth && authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Uni.createFrom().failure(new AuthenticationFailedException(
                    "basic auth is switched off (QAWK_BASIC_AUTH=false)"));
        }
        return Uni.createFrom().nullItem();
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        if (isScreen(context.normalizedPath())) {
            return Uni.createFrom().nullItem();
        }
        List<String> schemes = new ArrayList<>();
        if (basicAuth) {
            schemes.add("Basic realm=\"Quarkus\"");
        }
        if (oidc.enabled()) {
            schemes.add("Bearer");
        }
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", String.join(", ", schemes)));
    }

    static boolean isScreen(String path) {
        return path == null || path.equals("/") || path.equals("/ui") || path.startsWith("/ui/");
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of();
    }

    @Override
    public int getPriority() {
        return PRIORITY;
    }
}
