package io.qawk.orchestrator.hawkbit;

import java.time.Instant;

/**
 * A target as hawkBit's target list shows it. hawkBit's list does not carry attributes or sets.
 *
 * @param updateStatus            unknown, registered, pending, in_sync or error (as hawkBit spells it)
 * @param lastControllerRequestAt last poll of the device; null if it never polled
 * @param installedAt             when the installed set was installed; null if none
 */
public record HawkbitTarget(String controllerId, String name, String updateStatus, Instant lastControllerRequestAt,
        Instant installedAt, Instant createdAt) {
}
