package io.qawk.orchestrator.systemtype;

/**
 * Where a system's centre is read when its system type names no group key. The inventory owns the setting
 * ({@code qawk.inventory.default-group-key}) and implements this, so that system types do not depend on it.
 */
public interface DefaultGroupKey {

    /** A device key, e.g. {@code attribute.centerid}. */
    String key();
}
