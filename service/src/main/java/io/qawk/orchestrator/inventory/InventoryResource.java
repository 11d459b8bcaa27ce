package io.qawk.orchestrator.inventory;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** How the inventory stands, and a way to sync it now instead of waiting for the next scheduled pass. */
@Path("/qawk/v1/inventory")
@Produces(MediaType.APPLICATION_JSON)
public class InventoryResource {

    @Inject
    InventorySync sync;

    @Inject
    SyncState state;

    @GET
    public SyncState.Snapshot status() {
        return state.read();
    }

    @POST
    @Path("sync")
    public InventorySync.SyncResult syncNow() {
        return sync.syncNow();
    }
}
