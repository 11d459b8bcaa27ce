package io.qawk.orchestrator.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.List;

/**
 * Answers a body larger than {@code quarkus.http.limits.max-body-size} with a 413 problem document, as every other
 * error, instead of Quarkus' bare 413. It runs just before Quarkus' own check (route order -2), on the declared
 * {@code Content-Length}; a chunked body that grows too big is still cut off by Quarkus while it is read.
 */
@ApplicationScoped
public class BodySizeLimit {

    /** Quarkus' own limit handler has route order -2 (RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT). */
    static final int ORDER = -3;

    private final ObjectMapper json = new ObjectMapper();

    void install(@Observes Router router) {
        long limit = ConfigProvider.getConfig().getOptionalValue("quarkus.http.limits.max-body-size", MemorySize.class)
                .map(MemorySize::asLongValue).orElse(-1L);
        if (limit < 0) {
            return;
        }
        router.route().order(ORDER).handler(rc -> {
            String header = rc.request().getHeader("Content-Length");
            long length;
            try {
                length = header == null ? -1 : Long.parseLong(header.trim());
            } catch (NumberFormatException e) {
                length = -1; // not ours to judge: the HTTP layer refuses a malformed length
            }
            if (length <= limit) {
                rc.next();
                return;
            }
            Problem problem = new Problem("about:blank", "Content Too Large", 413, "the body is " + length
                    + " bytes; at most " + limit + " bytes (" + human(limit) + ") are accepted", rc.request().path(),
                    List.of());
            String body;
            try {
                body = json.writeValueAsString(problem);
            } catch (JsonProcessingException e) {
                body = "{\"status\":413}";
            }
            // the body is not read: close the connection after answering, as Quarkus does
            rc.response().putHeader("Connection", "close")
                    .putHeader("Content-Type", Problem.MEDIA_TYPE)
                    .setStatusCode(413)
                    .endHandler(v -> rc.request().connection().close())
                    .end(body);
        });
    }

    private static String human(long bytes) {
        if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) {
            return bytes / (1024 * 1024) + " MB";
        }
        return bytes >= 1024 && bytes % 1024 == 0 ? bytes / 1024 + " KB" : bytes + " bytes";
    }
}
