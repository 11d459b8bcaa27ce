package io.qawk.orchestrator.inventory;

/**
 * Fired (synchronously, as a CDI event) when an inventory sync has replaced the inventory, so that readers of it
 * (the store gauges) refresh without the inventory depending on them.
 */
public record InventorySynced() {
}
