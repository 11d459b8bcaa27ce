package io.qawk.orchestrator.hawkbit;

import java.time.Instant;

/**
 * A target filter of hawkBit's with an auto-assigned set: hawkBit gives the set to every target that matches the
 * query, within seconds of it matching.
 *
 * @param actionType how hawkBit assigns it ({@code forced}, {@code soft}, …), null when it did not say
 */
public record HawkbitAutoAssignment(long filterId, String name, String query, long distributionSetId,
        String actionType, Instant lastModifiedAt) {
}
