package io.qawk.orchestrator.security;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.List;
import java.util.Optional;

/**
 * The identity provider people sign in with ({@code qawk.oidc.*}, docs/security.md); basic auth is
 * {@code qawk.basic-auth} ({@code QAWK_BASIC_AUTH}), read where it is needed.
 */
@ConfigMapping(prefix = "qawk.oidc")
public interface SignInConfig {

    /** The issuer URL ({@code QAWK_OIDC_ISSUER}); unset: no sign-in through a provider. */
    Optional<String> issuer();

    /** Where the token holds its roles or groups ({@code QAWK_OIDC_ROLES_CLAIM}), dotted. */
    @WithDefault(SignInSettings.DEFAULT_ROLES_CLAIM)
    String rolesClaim();

    /** The provider's roles or groups that make a person a Qawk admin ({@code QAWK_OIDC_ADMIN_ROLES}). */
    Optional<List<String>> adminRoles();

    /** The provider's roles or groups that make a person a Qawk viewer ({@code QAWK_OIDC_VIEWER_ROLES}). */
    Optional<List<String>> viewerRoles();

    /**
     * The provider's roles or groups that make a person a Qawk approver ({@code QAWK_OIDC_APPROVER_ROLES}): approves or
     * rejects deployments awaiting four eyes, never one they created (issue 42).
     */
    Optional<List<String>> approverRoles();

    /**
     * The audience a bearer token must be for ({@code QAWK_OIDC_AUDIENCE}, comma-separated for more than one): in its
     * {@code aud}, or as its {@code azp}. Unset: the client id ({@code QAWK_OIDC_CLIENT_ID}).
     */
    Optional<List<String>> audience();

    default boolean enabled() {
        return issuer().filter(s -> !s.isBlank()).isPresent();
    }
}
