package io.qawk.orchestrator.hawkbit;

import java.time.Instant;

/**
 * A target as hawkBit's target list shows it. hawkBit's list does not carry attributes or sets.
 *
 * @param updateStatus            unknown, registered, pending, in_sync or error (as hawkBit spells it, every version)
 * @param lastControllerRequestAt last poll of the device; null if it never polled
 * @param installedAt             when the installed set was installed; null if none
 */
public record HawkbitTarget(String controllerId, String name, String updateStatus, Instant lastControllerRequestAt,
        Instant installedAt, Instant createdAt) {

    static final String IN_SYNC = "in_sync";
    static final String PENDING = "pending";
    static final String ERROR = "error";

    /** Its installed set is its assigned set and nothing is pending. */
    public boolean inSync() {
        return IN_SYNC.equalsIgnoreCase(updateStatus);
    }

    /** An update is assigned and not finished. */
    public boolean pending() {
        return PENDING.equalsIgnoreCase(updateStatus);
    }

    /** Its last update failed (and nothing newer is assigned). */
    public boolean inError() {
        return ERROR.equalsIgnoreCase(updateStatus);
    }
}
