package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.deployment.ChannelDeployments;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.List;

/**
 * The release engine's reads and writes. It decides nothing: what {@link ReleasePlanner} decided is stored as it is.
 * Methods marked {@code MANDATORY} join the engine's transaction, in which the engine plans between reading and
 * writing.
 */
@ApplicationScoped
public class ReleaseStore {

    private static final Logger LOG = Logger.getLogger(ReleaseStore.class);

    @Inject
    ChannelDeployments deployments;

    @Inject
    ReleaseStatus status;

    /** A current release and its channel, as a pass starts from them (detached). */
    public record Current(ChannelRelease release, Channel channel) {
    }

    @Transactional
    public List<Long> currentReleaseIds() {
        return ChannelRelease.<ChannelRelease>list("state", ChannelRelease.State.CURRENT).stream().map(r -> r.id).toList();
    }

    /** The release, if it is still current, with its channel. */
    @Transactional
    public Current current(long releaseId) {
        ChannelRelease r = ChannelRelease.findById(releaseId);
        return r == null || r.state != ChannelRelease.State.CURRENT ? null : new Current(r, Channel.findById(r.channelId));
    }

    /** The release as the planner sees it, read afresh, with the settings of its channel. */
    @Transactional(Transactional.TxType.MANDATORY)
    public ReleasePlanner.Release planned(long releaseId, Channel channel) {
        ChannelRelease r = ChannelRelease.lock(releaseId);
        return new ReleasePlanner.Release(r.halted, r.acceptedFailures, r.completedAt, channel.name, channel.deviceMaxFailed,
                channel.deviceBatchSize, channel.maxFailed);
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public List<ReleasePlanner.Device> devices(long releaseId) {
        return ReleaseDevice.<ReleaseDevice>list("releaseId", releaseId).stream().map(ReleaseStore::planned).toList();
    }

    @Transactional
    public List<ReleasePlanner.Device> assigned(long releaseId) {
        return ReleaseDevice.<ReleaseDevice>list("releaseId = ?1 and state = ?2", releaseId, ReleaseDevice.State.ASSIGNED)
                .stream().map(ReleaseStore::planned).toList();
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public long failed(long releaseId) {
        return ReleaseDevice.count("releaseId = ?1 and state = ?2", releaseId, ReleaseDevice.State.FAILED);
    }

    /** Devices pending or in flight: the standalone half is done when there are none. */
    @Transactional(Transactional.TxType.MANDATORY)
    public long open(long releaseId) {
        return ReleaseDevice.count("releaseId = ?1 and state in ?2", releaseId,
                List.of(ReleaseDevice.State.PENDING, ReleaseDevice.State.ASSIGNED));
    }

    /** The first {@code size} pending devices, by controller id. */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<String> pending(long releaseId, int size) {
        return ReleaseDevice.<ReleaseDevice>find("releaseId = ?1 and state = ?2 order by controllerId", releaseId,
                ReleaseDevice.State.PENDING).page(0, Math.max(size, 1)).list().stream()
                .limit(size).map(d -> d.controllerId).toList();
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void saveMembership(long releaseId, ReleasePlanner.Membership membership) {
        save(releaseId, membership.left(), null);
        for (String id : membership.joined()) {
            ReleaseDevice d = new ReleaseDevice();
            d.releaseId = releaseId;
            d.controllerId = id;
            d.persist();
        }
    }

    /** Stores these changes; with {@code onlyFrom}, only on devices still in that state. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void save(long releaseId, List<ReleasePlanner.Change> changes, ReleaseDevice.State onlyFrom) {
        for (ReleasePlanner.Change c : changes) {
            ReleaseDevice d = ReleaseDevice.findById(new ReleaseDevice.Key(releaseId, c.controllerId()));
            if (d == null || onlyFrom != null && d.state != onlyFrom) {
                continue;
            }
            d.state = d.state.to(c.state());
            if (c.detail() != null) {
                d.detail = c.detail();
            }
            if (c.state() == ReleaseDevice.State.ASSIGNED) {
                d.assignedAt = c.assignedAt();
                d.actionId = c.actionId();
            }
        }
    }

    /** What is read to evaluate a release at the end of a pass, with its channel's settings. */
    public record ToEvaluate(ReleasePlanner.Release release, DeploymentPhase phase, int rolledBack, boolean hasSet,
                             long devicesOpen) {
    }

    /** Null when the release is no longer stored (deleted, or a restore put back a database without it). */
    @Transactional(Transactional.TxType.MANDATORY)
    public ToEvaluate toEvaluate(long releaseId) {
        ChannelRelease r = ChannelRelease.lock(releaseId);
        if (r == null) {
            return null;
        }
        Channel channel = Channel.findById(r.channelId);
        DeploymentPhase phase = r.deploymentId == null ? null
                : deployments.brief(r.deploymentId).map(ChannelDeployments.Brief::phase).orElse(null);
        ChannelView.SystemCounts systems = phase == null ? null : status.systems(r);
        return new ToEvaluate(planned(releaseId, channel), phase, systems == null ? 0 : systems.rolledBack(),
                r.distributionSetId != null, r.distributionSetId == null ? 0 : open(releaseId));
    }

    /** Stores the evaluation: the halt, and the completion time set ({@code now}) or cleared. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void save(long releaseId, ReleasePlanner.Evaluation e, Instant now) {
        ChannelRelease r = ChannelRelease.lock(releaseId);
        e.halt().ifPresent(h -> halt(releaseId, h));
        if (e.completion() == ReleasePlanner.Completion.COMPLETED) {
            r.completedAt = now;
            LOG.infof("Release %d of channel '%s' is complete: %s", r.id, channel(r), status.words(r));
        } else if (e.completion() == ReleasePlanner.Completion.REOPENED) {
            r.completedAt = null;
            LOG.infof("Release %d of channel '%s' reopened: %s", r.id, channel(r), status.words(r));
        }
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void halt(long releaseId, ReleasePlanner.Halt halt) {
        ChannelRelease r = ChannelRelease.lock(releaseId);
        r.halted = true;
        r.haltCause = halt.cause();
        r.haltReason = halt.reason();
        LOG.warnf("Release %d halted: %s", r.id, halt.reason());
    }

    private static String channel(ChannelRelease r) {
        return Channel.<Channel>findById(r.channelId).name;
    }

    private static ReleasePlanner.Device planned(ReleaseDevice d) {
        return new ReleasePlanner.Device(d.controllerId, d.state, d.assignedAt, d.actionId);
    }
}
