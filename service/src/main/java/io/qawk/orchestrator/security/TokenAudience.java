package io.qawk.orchestrator.security;

import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.IdTokenCredential;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonString;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Takes only access tokens meant for Qawk: the provider signs tokens for every client of its realm, and one minted for
 * another application (an admin's, even) must not open Qawk's API. A bearer token is taken when its {@code aud}
 * names one of Qawk's audiences ({@code qawk.oidc.audience}, {@code QAWK_OIDC_AUDIENCE}; default the client id), or
 * its {@code azp} (the client it was issued to) does, as Keycloak's tokens for Qawk's own client say it. Otherwise it
 * is refused: an authentication failure caused by {@link NotForQawk}, which {@link UnauthorizedProblem} answers with
 * 401 {@code application/problem+json} saying why.
 * The screen's sign-in (the code flow) is left alone: Qawk asked for those tokens itself, and the extension checks
 * the ID token's audience.
 */
@ApplicationScoped
public class TokenAudience implements SecurityIdentityAugmentor {

    @Inject
    SignInConfig config;

    @ConfigProperty(name = "quarkus.oidc.client-id")
    Optional<String> clientId;

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken token)
                || identity.getCredential(AccessTokenCredential.class) == null
                || identity.getCredential(IdTokenCredential.class) != null) {
            return Uni.createFrom().item(identity);
        }
        List<String> audiences = audiences();
        Object azp = token.getClaim("azp");
        Optional<String> refusal = refusal(token.getAudience(), azp == null ? null
                : azp instanceof JsonString text ? text.getString() : String.valueOf(azp), audiences);
        if (refusal.isPresent()) {
            return Uni.createFrom().failure(new AuthenticationFailedException(refusal.get(),
                    new NotForQawk(refusal.get())));
        }
        return Uni.createFrom().item(identity);
    }

    /** Qawk's audiences: the configured ones, else the client id. */
    List<String> audiences() {
        List<String> configured = config.audience().orElse(List.of()).stream().map(String::strip)
                .filter(s -> !s.isEmpty()).toList();
        return configured.isEmpty() ? clientId.map(String::strip).filter(s -> !s.isEmpty()).map(List::of)
                .orElse(List.of()) : configured;
    }

    /** Why a token with this {@code aud} and {@code azp} is not for Qawk; empty when it is. Pure. */
    static Optional<String> refusal(Set<String> aud, String azp, List<String> audiences) {
        if (audiences.isEmpty()) {
            return Optional.empty();
        }
        Set<String> has = aud == null ? Set.of() : aud;
        if (audiences.stream().anyMatch(a -> has.contains(a) || a.equals(azp))) {
            return Optional.empty();
        }
        return Optional.of("the token is not for Qawk: it was issued to the client " + (azp == null ? "(no azp)" : azp)
                + " with the audience " + (has.isEmpty() ? "(none)" : String.join(", ", has.stream().sorted().toList()))
                + "; Qawk takes only tokens for the audience " + String.join(" or ", audiences)
                + " (in aud, or as azp; QAWK_OIDC_AUDIENCE): have the provider add Qawk's client to the token's"
                + " audience (in Keycloak an audience mapper, docs/security.md)");
    }

    @Override
    public int priority() {
        return 10; // before ProviderRoles (0): a refused token gets no roles
    }

    /** Why a valid token of the provider was refused: it is meant for another client (the 401's cause). */
    public static final class NotForQawk extends RuntimeException {
        public NotForQawk(String message) {
            super(message, null, false, false);
        }
    }
}
