package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.systemtype.DefaultGroupKey;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The default group key as the inventory is configured with it ({@link InventoryConfig#defaultGroupKey()}). */
@ApplicationScoped
public class InventoryGroupKey implements DefaultGroupKey {

    @Inject
    InventoryConfig config;

    @Override
    public String key() {
        return config.defaultGroupKey();
    }
}
