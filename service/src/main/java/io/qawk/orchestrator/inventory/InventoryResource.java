package io.qawk.orchestrator.inventory;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** How the inventory stands, and a way to sync it now instead of waiting for the next scheduled pass. */
@Path("/qawk/v1/inventory")
@Produces(MediaType.APPLICATION_JSON)
public class InventoryResource {

    @Inject
    InventorySync sync;

    @Inject
    SyncState state;

    @Inject
    Clock clock;

    /**
     * Vert.x closes a connection that carries no byte for this long, a request still being worked on included; a sync
     * of a large fleet or against a slow hawkBit can take longer, so the answer comes within half of it.
     */
    @ConfigProperty(name = "quarkus.http.idle-timeout", defaultValue = "30M")
    Duration idleTimeout;

    @GET
    public SyncState.Snapshot status() {
        return state.read();
    }

    /**
     * Runs a pass now (after one already under way). It answers 200 with what the pass found when it ends within half
     * the HTTP idle timeout, and otherwise 202: the pass goes on, and {@code GET /qawk/v1/inventory} says how it ended.
     */
    @POST
    @Path("sync")
    @APIResponse(responseCode = "200", description = "The pass ended: what it found",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = InventorySync.SyncResult.class)))
    @APIResponse(responseCode = "202", description = "The pass is still under way and goes on; GET /qawk/v1/inventory"
            + " says how it ended (lastStartedAt at or after requestedAt, then lastCompletedAt or lastFailedAt)",
            headers = @Header(name = "Location", description = "The inventory's status: /qawk/v1/inventory",
                    schema = @Schema(type = SchemaType.STRING, format = "uri")),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SyncUnderWay.class)))
    public Response syncNow(@Context UriInfo uri) {
        Instant requestedAt = clock.instant().truncatedTo(ChronoUnit.MICROS);
        CompletableFuture<InventorySync.SyncResult> pass = sync.requestPass();
        try {
            // an idle timeout of 0 keeps connections however long they idle: then the answer waits for the pass
            InventorySync.SyncResult found = idleTimeout.isZero() || idleTimeout.isNegative() ? pass.get()
                    : pass.get(idleTimeout.dividedBy(2).toMillis(), TimeUnit.MILLISECONDS);
            return Response.ok(found).build();
        } catch (TimeoutException stillUnderWay) {
            return Response.accepted(new SyncUnderWay(requestedAt, "The inventory sync is still under way; GET "
                            + "/qawk/v1/inventory says how it ended."))
                    .location(uri.getBaseUriBuilder().path(InventoryResource.class).build()).build();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r; // answered as before: hawkBit unavailable, refused, …
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the inventory sync", e);
        }
    }

    /** A pass asked for at {@code requestedAt} that had not ended when the answer was due. */
    public record SyncUnderWay(Instant requestedAt, String detail) {
    }
}
