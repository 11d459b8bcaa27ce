package io.qawk.orchestrator.hawkbit;

import java.time.Instant;

/**
 * An action of a target as hawkBit lists it. Fields differ by hawkBit version, see {@link ActionOutcome}.
 *
 * @param status            up to 0.9: pending|finished only; from 0.10: the real state (running, finished, error, …)
 * @param active            from 0.10 only; null on older servers
 * @param detailStatus      from 0.3.0M8 only; null on older servers
 * @param distributionSetId from {@code _links.distributionset.href}; null when hawkBit sends no such link
 */
public record HawkbitAction(long id, String status, Boolean active, String detailStatus, Instant createdAt,
        Instant lastModifiedAt, Long distributionSetId) {
}
