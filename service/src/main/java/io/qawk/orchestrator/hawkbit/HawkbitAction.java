package io.qawk.orchestrator.hawkbit;

import java.time.Instant;

/**
 * An action of a target as hawkBit lists it. Fields differ by hawkBit version, see {@link ActionOutcome}.
 *
 * @param status            up to 0.9: pending|finished only; from 0.10: the real state (running, finished, error, …)
 * @param active            from 0.10 only; null on older servers
 * @param detailStatus      from 0.3.0M8 only; null on older servers
 * @param distributionSetId from {@code _links.distributionset.href}; null when hawkBit sends no such link
 * @param createdBy         the Management API user that created it (Qawk's own user for what Qawk sent); null when
 *                          hawkBit does not say
 */
public record HawkbitAction(long id, String status, Boolean active, String detailStatus, Instant createdAt,
        Instant lastModifiedAt, Long distributionSetId, String createdBy) {

    public HawkbitAction(long id, String status, Boolean active, String detailStatus, Instant createdAt,
                         Instant lastModifiedAt, Long distributionSetId) {
        this(id, status, active, detailStatus, createdAt, lastModifiedAt, distributionSetId, null);
    }

    /** Whether the device has not ended it yet (on servers without {@code active}: still pending). */
    public boolean open() {
        return active != null ? active : "pending".equalsIgnoreCase(status);
    }
}
