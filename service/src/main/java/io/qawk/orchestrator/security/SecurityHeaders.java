package io.qawk.orchestrator.security;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The headers a browser needs, on every answer of the service — refusals (401, 403, 404) included, because they are
 * set just before the headers go out, whoever wrote the answer:
 * <ul>
 *   <li>everywhere: framing refused ({@code X-Frame-Options: DENY}, and {@code frame-ancestors 'none'} in the
 *   Content-Security-Policy) and {@code X-Content-Type-Options: nosniff};</li>
 *   <li>the screen ({@code /ui/…}): {@link #SCREEN_POLICY}, the policy it works under — its own scripts, styles and
 *   API, no inline script, nothing from elsewhere — and {@code Referrer-Policy: no-referrer}; the signed-in page itself
 *   is never kept by a cache ({@code no-store}); its files, which need a sign-in too, are kept only by the browser and
 *   asked again each time ({@code private, no-cache}: never {@code public}, which a shared cache may keep);</li>
 *   <li>the API ({@code /qawk/…}): {@link #API_POLICY}, nothing at all may run or load from its answers;</li>
 *   <li>elsewhere ({@code /q/swagger-ui}, the sign-in's callbacks): only {@code frame-ancestors 'none'}, so that
 *   Swagger UI's own inline script and the identity provider's redirects keep working.</li>
 * </ul>
 */
@ApplicationScoped
public class SecurityHeaders {

    /** The screen's policy (index.html's meta element says the same, and frame-ancestors only works as a header). */
    public static final String SCREEN_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    public static final String API_POLICY = "default-src 'none'; frame-ancestors 'none'";
    static final String ELSEWHERE_POLICY = "frame-ancestors 'none'";

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::handle);
    }

    private void handle(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        HttpServerResponse response = ctx.response();
        ctx.addHeadersEndHandler(ignored -> {
            response.putHeader("X-Frame-Options", "DENY");
            response.putHeader("X-Content-Type-Options", "nosniff");
            if (isScreen(path)) {
                response.putHeader("Content-Security-Policy", SCREEN_POLICY);
                response.putHeader("Referrer-Policy", "no-referrer");
                response.putHeader("Cache-Control", isPage(path) ? "no-store" : "private, no-cache");
            } else if (path.startsWith("/qawk/")) {
                response.putHeader("Content-Security-Policy", API_POLICY);
            } else if (!response.headers().contains("Content-Security-Policy")) {
                response.putHeader("Content-Security-Policy", ELSEWHERE_POLICY);
            }
        });
        ctx.next();
    }

    private static boolean isScreen(String path) {
        return path.equals("/ui") || path.startsWith("/ui/");
    }

    /** The page (index.html, under its names): what a browser shows, never cached; the rest are its files. */
    private static boolean isPage(String path) {
        return path.equals("/ui") || path.equals("/ui/") || path.endsWith(".html") || !path.substring(path.lastIndexOf('/') + 1).contains(".");
    }
}
