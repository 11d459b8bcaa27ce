package io.qawk.orchestrator.inventory;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** How the local copy of hawkBit's targets is kept. */
@ConfigMapping(prefix = "qawk.inventory")
public interface InventoryConfig {

    /** How often the inventory is synced from hawkBit. */
    @WithDefault("30s")
    Duration syncInterval();

    /** How long after start the first scheduled sync runs. */
    @WithDefault("2s")
    Duration initialDelay();

    /** Where a system's centre is read when its system type names no group key. */
    @WithDefault("attribute.centerid")
    String defaultGroupKey();

    /** How many per-device hawkBit requests a sync runs at once. */
    @WithDefault("8")
    int parallelRequests();
}
