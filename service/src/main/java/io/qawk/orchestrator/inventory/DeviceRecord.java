package io.qawk.orchestrator.inventory;

import java.time.Instant;
import java.util.Map;

/** What the inventory knows of one hawkBit target. */
public record DeviceRecord(String controllerId, String name, String updateStatus, Instant lastPollAt,
                           Instant installedAt, Long installedSetId, String installedSet,
                           Long assignedSetId, String assignedSet, Map<String, String> attributes,
                           Map<String, String> metadata) {
}
