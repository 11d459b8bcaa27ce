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

    /**
     * Longest target query (characters before URL encoding) the sync sends to check known devices in bulk; keep
     * the encoded URL under hawkBit's header limit (8 KB on a default Tomcat).
     */
    @WithDefault("3000")
    int checkQueryLength();

    /** How many per-device hawkBit requests a sync runs at once. */
    @WithDefault("8")
    int parallelRequests();

    /**
     * Longest time one of a sync's database transactions may take (reading the inventory, writing it, recomputing
     * the discovered systems) before the transaction manager rolls it back. Not the 60 s default meant for requests:
     * a first sync of 100,000 targets on a busy database takes longer.
     */
    @WithDefault("10m")
    Duration transactionTimeout();
}
