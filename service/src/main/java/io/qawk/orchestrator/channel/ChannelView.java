package io.qawk.orchestrator.channel;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.qawk.orchestrator.deployment.ChannelDeployments;

import java.time.Instant;
import java.util.List;

/**
 * A channel as the API shows it, with its current release and whether that release may be promoted; and its members
 * that form no system ({@code problemDevices} counts them all, {@code problems} lists the first 100); {@code overlaps}:
 * its systems that a deployment of no or another channel drives (or has pending), and who, said in a sentence per
 * driver by {@code overlapsSummary} (null when none); absent from the listing. {@code approval}: {@code required} when
 * its releases' deployments wait for four eyes, else {@code none}.
 */
public record ChannelView(long id, String name, String match, Long promotesTo, String promotesToName,
                        ChannelRequest.Orchestrator orchestrator, ChannelRequest.Devices devices, int soakSeconds,
                        String managedBy, String approval, ReleaseView release, Gate gate, Instant createdAt, Instant updatedAt,
                        int problemDevices, List<ChannelProblems.ProblemDevice> problems,
                        @JsonInclude(JsonInclude.Include.NON_NULL) List<ChannelDeployments.Overlap> overlaps,
                        @JsonInclude(JsonInclude.Include.NON_NULL) String overlapsSummary) {

    /**
     * How the current release stands, in numbers and words; which revision of the manifest its systems get (the one
     * its deployment started with, carried along by promotion) and whether the manifest has been changed since;
     * {@code state}: {@link ChannelRelease#progress()}, the word the screen shows as it is.
     */
    public record ReleaseView(long id, Long distributionSetId, String distributionSet, Long manifestId,
                              String manifestName, Long deploymentId, String deploymentState,
                              ChannelRelease.Progress state,
                              boolean complete, boolean halted, String haltCause, String haltReason,
                              SystemCounts systems, DeviceCounts devices, String systemsSummary,
                              String devicesSummary, Long promotedFrom, Instant createdAt, String createdBy,
                              Instant completedAt, Integer manifestRevision, boolean manifestChangedSince) {
    }

    /** The release's systems by how they ended; {@code held}: of the pending, those a compatibility rule holds. */
    public record SystemCounts(int total, int updated, int rolledBack, int underWay, int pending, int givenUp, int held) {
    }

    /** The release's standalone devices by state. */
    public record DeviceCounts(int total, int onSet, int failed, int inFlight, int pending) {
    }

    /** Whether the release may be promoted to the next channel now, and if not, why. */
    public record Gate(boolean canPromote, String reason) {
    }

}
