package io.qawk.orchestrator.inventory;

/**
 * Something else the inventory sync keeps up to date from hawkBit in the same pass (channel membership).
 * Throws {@link io.qawk.orchestrator.hawkbit.HawkbitUnavailableException} to abort the pass like the sync itself.
 */
public interface InventoryContributor {

    /** Refreshes its part; returns how many hawkBit requests it made. */
    int refresh();
}
