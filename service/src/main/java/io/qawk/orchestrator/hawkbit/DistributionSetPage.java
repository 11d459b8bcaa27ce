package io.qawk.orchestrator.hawkbit;

import java.util.List;

/** A page of hawkBit's distribution sets and how many match in all. */
public record DistributionSetPage(long total, List<DistributionSetRef> content) {
}
