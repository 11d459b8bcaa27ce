package io.qawk.orchestrator.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.common.Problem;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.List;

/**
 * A token of the provider that is not for Qawk ({@link TokenAudience.NotForQawk}) answers 401
 * {@code application/problem+json} saying so (to whom it was issued, which audience Qawk takes, how to get it),
 * with the {@code WWW-Authenticate} challenge the other 401s carry, instead of the empty 401 of the HTTP layer.
 */
@ApplicationScoped
public class UnauthorizedProblem {

    @Inject
    ObjectMapper json;

    @ConfigProperty(name = "qawk.basic-auth", defaultValue = "true")
    boolean basicAuth;

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).failureHandler(this::handle);
    }

    private void handle(RoutingContext ctx) {
        TokenAudience.NotForQawk refused = notForQawk(ctx.failure());
        if (refused == null || ctx.response().ended() || SignInChallenge.isScreen(ctx.normalizedPath())) {
            ctx.next();
            return;
        }
        try {
            byte[] body = json.writeValueAsBytes(new Problem("about:blank", "Unauthorized", 401, refused.getMessage(),
                    ctx.normalizedPath(), List.of()));
            String bearer = "Bearer error=\"invalid_token\", error_description=\"the token is not for Qawk\"";
            ctx.response().setStatusCode(401).putHeader("Content-Type", Problem.MEDIA_TYPE)
                    .putHeader("WWW-Authenticate", basicAuth ? "Basic realm=\"Quarkus\", " + bearer : bearer)
                    .end(Buffer.buffer(body));
        } catch (Exception e) {
            ctx.next();
        }
    }

    private static TokenAudience.NotForQawk notForQawk(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TokenAudience.NotForQawk n) {
                return n;
            }
        }
        return null;
    }
}
