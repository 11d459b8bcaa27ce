package io.qawk.orchestrator.security;

import io.qawk.orchestrator.common.Actors;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Qawk's two roles for a person signed in through the identity provider: {@code admin} (and with it {@code viewer})
 * when the token's roles claim holds one of the configured admin roles, {@code viewer} when it holds one of the
 * viewer roles, none otherwise. The provider's own roles never count as Qawk's (a provider role called "admin" makes
 * nobody an admin unless configured); they are kept as the attribute {@value #PROVIDER_ROLES} for the refusal to
 * name. Basic-auth users keep the roles the configuration gives them.
 */
@ApplicationScoped
public class ProviderRoles implements SecurityIdentityAugmentor {

    public static final String PROVIDER_ROLES = "qawk.provider-roles";
    public static final String ADMIN = "admin";
    public static final String VIEWER = "viewer";
    public static final String APPROVER = Actors.APPROVER;

    @Inject
    SignInConfig config;

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken)) {
            return Uni.createFrom().item(identity);
        }
        Set<String> provider = new TreeSet<>(identity.getRoles());
        QuarkusSecurityIdentity.Builder b = QuarkusSecurityIdentity.builder()
                .setPrincipal(identity.getPrincipal())
                .addCredentials(identity.getCredentials())
                .addAttributes(identity.getAttributes())
                .addAttribute(PROVIDER_ROLES, provider)
                .addRoles(qawkRoles(provider, config.adminRoles().orElse(List.of()),
                        config.viewerRoles().orElse(List.of()), config.approverRoles().orElse(List.of())))
                .addPermissionChecker(identity::checkPermission);
        return Uni.createFrom().item(b.build());
    }

    /** Qawk's roles for these provider roles; a group given with its path ({@code /qawk-admins}) matches its name. */
    public static Set<String> qawkRoles(Set<String> provider, List<String> adminRoles, List<String> viewerRoles) {
        return qawkRoles(provider, adminRoles, viewerRoles, List.of());
    }

    /** The same with the approver's roles or groups: an approver reads too (viewer). */
    public static Set<String> qawkRoles(Set<String> provider, List<String> adminRoles, List<String> viewerRoles,
                                        List<String> approverRoles) {
        Set<String> names = new LinkedHashSet<>();
        for (String r : provider) {
            names.add(r);
            names.add(r.startsWith("/") ? r.substring(r.lastIndexOf('/') + 1) : r);
        }
        Set<String> roles = new TreeSet<>();
        if (adminRoles.stream().map(String::strip).anyMatch(names::contains)) {
            roles.add(ADMIN);
            roles.add(VIEWER);
        }
        if (viewerRoles.stream().map(String::strip).anyMatch(names::contains)) {
            roles.add(VIEWER);
        }
        if (approverRoles.stream().map(String::strip).anyMatch(names::contains)) {
            roles.add(APPROVER);
            roles.add(VIEWER);
        }
        return roles;
    }
}
