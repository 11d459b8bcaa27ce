package io.qawk.orchestrator.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.common.Problem;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A refusal of the API's permissions (a viewer changing something, a person with neither of Qawk's roles) answers 403
 * {@code application/problem+json} saying which of Qawk's roles would do, which of the identity provider's roles or
 * groups give it, and what the caller has, instead of the empty 403 of the HTTP layer.
 */
@ApplicationScoped
public class ForbiddenProblem {

    private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

    @Inject
    SignInConfig oidc;

    @Inject
    ObjectMapper json;

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).failureHandler(this::handle);
    }

    private void handle(RoutingContext ctx) {
        if (!(ctx.failure() instanceof ForbiddenException) || ctx.response().ended()
                || !ctx.normalizedPath().startsWith("/qawk/")) {
            ctx.next();
            return;
        }
        SecurityIdentity identity = ctx.user() instanceof QuarkusHttpUser u ? u.getSecurityIdentity() : null;
        String detail = detail(ctx.request().method().name(), ctx.normalizedPath(), identity);
        try {
            byte[] body = json.writeValueAsBytes(new Problem("about:blank", "Forbidden", 403, detail,
                    ctx.normalizedPath(), List.of()));
            ctx.response().setStatusCode(403).putHeader("Content-Type", Problem.MEDIA_TYPE)
                    .end(Buffer.buffer(body));
        } catch (Exception e) {
            ctx.next();
        }
    }

    String detail(String method, String path, SecurityIdentity identity) {
        boolean read = READS.contains(method);
        boolean decision = !read && path != null && path.startsWith("/qawk/v1/systemdeployments/")
                && (path.endsWith("/approve") || path.endsWith("/reject"));
        String needed = decision ? "the role approver" : read ? "the role viewer or admin" : "the role admin";
        StringBuilder s = new StringBuilder(method).append(' ').append(path).append(" needs ").append(needed);
        if (oidc.enabled()) {
            List<String> giving = decision ? oidc.approverRoles().orElse(List.of()) : read
                    ? concat(oidc.viewerRoles().orElse(List.of()), oidc.adminRoles().orElse(List.of()))
                    : oidc.adminRoles().orElse(List.of());
            s.append("; from the identity provider, ")
                    .append(giving.isEmpty() ? "no role or group is configured to give it"
                            : "one of " + String.join(", ", giving))
                    .append(" (claim ").append(oidc.rolesClaim()).append(')');
        }
        if (identity != null && !identity.isAnonymous()) {
            s.append(". ").append(identity.getPrincipal().getName()).append(" has ")
                    .append(words(identity.getRoles()));
            Object provider = identity.getAttribute(ProviderRoles.PROVIDER_ROLES);
            if (provider instanceof Collection<?> c) {
                s.append(" (the token's ").append(oidc.rolesClaim()).append(": ")
                        .append(c.isEmpty() ? "none" : String.join(", ", c.stream().map(String::valueOf).toList()))
                        .append(')');
            }
        }
        return s.toString();
    }

    private static String words(Set<String> roles) {
        return roles.isEmpty() ? "no role of Qawk's" : "the role" + (roles.size() > 1 ? "s " : " ")
                + String.join(", ", roles.stream().sorted().toList());
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).distinct().toList();
    }
}
