package io.qawk.orchestrator.deployment;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.qawk.orchestrator.deployment.model.Command;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.store.RunRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * What channels ask of system deployments: the whole of the deployments' API the {@code channel} package uses, so that
 * it needs none of their entities or engine parts. Each method joins the caller's transaction.
 */
@ApplicationScoped
public class ChannelDeployments {

    @Inject
    DeploymentService deployments;

    @Inject
    DeploymentCommands commands;

    @Inject
    DeploymentFollower follower;

    @Inject
    DeploymentOverlaps overlaps;

    @Inject
    RunRepository runs;

    /**
     * A deployment that drives a system, or will: its id and name, and its channel ({@code fleetId}, {@code fleet};
     * null for one made by hand). Deployments' plans show the same.
     */
    public record DrivenBy(long deploymentId, String name, @JsonProperty("fleetId") Long channelId,
                           @JsonProperty("fleet") String channel) {
    }

    /**
     * A system another deployment drives: {@code underWay} when its run is under way there now (this one waits for
     * it: one system, one driver); otherwise it is pending there, in a deployment started and not ended, and the
     * first of the two to start it drives it. {@code reason} says so in words.
     */
    public record Overlap(String system, DrivenBy drivenBy, boolean underWay, String reason) {
    }

    /** The systems of the channel (its members as of the last sync) that a deployment of no or another channel drives. */
    public List<Overlap> overlaps(long channelId) {
        return overlaps.ofChannel(channelId);
    }

    /** The same for the systems of these devices (the channel's query's matches, before a sync stored them). */
    public List<Overlap> overlaps(long channelId, Collection<String> controllerIds) {
        return overlaps.ofChannel(channelId, controllerIds);
    }

    /** The channel's overlaps in one sentence, null when there are none. */
    public static String overlapsSummary(List<Overlap> overlaps) {
        return DeploymentOverlaps.summary(overlaps, true);
    }

    /** A deployment as a channel sees it: its phase, and the manifest revision it started with (null for a draft). */
    public record Brief(long id, DeploymentPhase phase, Long manifestRevisionId) {
    }

    public Optional<Brief> brief(long deploymentId) {
        SystemDeployment d = SystemDeployment.findById(deploymentId);
        return d == null ? Optional.empty() : Optional.of(new Brief(d.id, d.phase, d.manifestRevisionId));
    }

    /**
     * Creates the deployment of a release and starts it; {@code manifestRevisionId} pins the revision (promotion:
     * what passed the gate goes on), null freezes the manifest now. Returns its id. One whose system type or channel
     * requires approval is not started: it waits in AWAITING_APPROVAL, and its approval starts it (issue 42).
     */
    @Transactional
    public long startForRelease(DeploymentRequest request, Long manifestRevisionId, String actor) {
        SystemDeployment d = deployments.create(request, actor);
        d.manifestRevisionId = manifestRevisionId;
        d.followsChannel = true;
        if (d.phase.allows(Command.START)) {
            commands.start(d.id, actor);
        }
        return d.id;
    }

    /**
     * A newer release supersedes the deployment's: the channel follows it no more, and it is aborted unless it has ended
     * or is aborting already.
     */
    @Transactional
    public void abortIfOpen(long deploymentId, String actor) {
        // locked at the first read: a stale read locked later fails on the version another writer moved meanwhile
        SystemDeployment d = SystemDeployment.findById(deploymentId, LockModeType.PESSIMISTIC_WRITE);
        if (d != null) {
            d.followsChannel = false;
        }
        if (d != null && !d.phase.ended() && d.phase.allows(Command.ABORT)) {
            commands.abort(d.id, actor);
        }
    }

    /** Re-scopes a channel's deployment to the channel ({@link DeploymentFollower}); returns how many systems joined. */
    public int follow(long deploymentId) {
        return follower.follow(deploymentId);
    }

    /** The channel is deleted: its deployments stay, as deployments of no channel. */
    @Transactional
    public void forgetChannel(long channelId) {
        SystemDeployment.update("channelId = null where channelId = ?1", channelId);
    }

    /**
     * A deployment's systems as a release counts them: updated (succeeded), sent back (rolled back, or failed to),
     * under way (a soaking system is not updated yet, one whose rollback is asked for is going back), pending, held
     * (of the pending, those a compatibility rule holds), given up, and skipped (with the rest).
     */
    public record SystemTally(int updated, int back, int underWay, int pending, int givenUp, int skipped, int held) {

        public int total() {
            return updated + back + underWay + pending + skipped;
        }

        /** The runs counted as the API shows their states ({@link RunState#seen}). */
        public static SystemTally of(List<SystemRun.Tally> runs) {
            int updated = 0;
            int back = 0;
            int underWay = 0;
            int pending = 0;
            int givenUp = 0;
            int skipped = 0;
            int held = 0;
            for (SystemRun.Tally t : runs) {
                held += (int) t.held();
                for (RunState shown : RunState.values()) {
                    int n = (int) t.seenAs(shown);
                    switch (shown) {
                        case SUCCEEDED -> updated += n;
                        case ROLLED_BACK, ROLLBACK_FAILED -> back += n;
                        case RUNNING, VERIFYING, ROLLING_BACK -> underWay += n;
                        case PENDING -> pending += n;
                        case GIVEN_UP -> givenUp += n;
                        case SKIPPED -> skipped += n;
                    }
                }
            }
            return new SystemTally(updated, back, underWay, pending, givenUp, skipped, held);
        }
    }

    /** How the deployment's systems stand, counted by their runs' states. */
    public SystemTally tally(long deploymentId) {
        return SystemTally.of(runs.tally(deploymentId));
    }
}
