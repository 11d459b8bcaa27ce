package io.qawk.orchestrator.fleet;

import io.qawk.orchestrator.deployment.DeploymentFollower;
import io.qawk.orchestrator.deployment.DeploymentPhase;
import io.qawk.orchestrator.deployment.DeviceObserver;
import io.qawk.orchestrator.deployment.EngineConfig;
import io.qawk.orchestrator.deployment.EngineLock;
import io.qawk.orchestrator.deployment.Outcome;
import io.qawk.orchestrator.deployment.SystemDeployment;
import io.qawk.orchestrator.hawkbit.AssignmentIncompleteException;
import io.qawk.orchestrator.hawkbit.AssignmentResult;
import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.HawkbitUnavailableException;
import io.qawk.orchestrator.inventory.HawkbitNotConfigured;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Drives the current release of every channel: the set to the standalone devices in batches (skipping those on it),
 * the orchestrator following the channel, halts when a budget is exceeded, and completion when both halves are done.
 * A halted release never resumes itself.
 */
@ApplicationScoped
public class ReleaseEngine {

    private static final Logger LOG = Logger.getLogger(ReleaseEngine.class);

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    DeviceObserver observer;

    @Inject
    DeploymentFollower follower;

    @Inject
    EngineLock locks;

    @Inject
    EngineConfig config;

    @Inject
    ChannelProblems problems;

    @Inject
    FleetMetrics metrics;

    @Inject
    Clock clock;

    private final ReentrantLock passLock = new ReentrantLock();

    @Scheduled(every = "${qawk.engine.interval:5s}", delayed = "${qawk.engine.initial-delay:3s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = HawkbitNotConfigured.class)
    void scheduled() {
        passAll();
    }

    public void passAll() {
        passLock.lock();
        try {
            List<Long> ids = QuarkusTransaction.requiringNew().call(() -> FleetRelease.<FleetRelease>list("state",
                    FleetRelease.State.CURRENT).stream().map(r -> r.id).toList());
            for (long id : ids) {
                Optional<EngineLock.Held> lock = locks.tryLock(EngineLock.RELEASES, (int) id);
                if (lock.isEmpty()) {
                    continue;
                }
                try (EngineLock.Held held = lock.get()) {
                    pass(id);
                } catch (HawkbitUnavailableException e) {
                    LOG.warnf("Release %d waits: hawkBit is unavailable (%s)", id, e.getMessage());
                } catch (RuntimeException e) {
                    LOG.errorf(e, "Pass of release %d failed; it is tried again next pass", id);
                }
            }
            QuarkusTransaction.requiringNew().run(metrics::refresh);
        } finally {
            passLock.unlock();
        }
    }

    void pass(long releaseId) {
        record Ctx(FleetRelease release, Fleet fleet) {
        }
        Ctx ctx = QuarkusTransaction.requiringNew().call(() -> {
            FleetRelease r = FleetRelease.findById(releaseId);
            return r == null || r.state != FleetRelease.State.CURRENT ? null : new Ctx(r, Fleet.findById(r.fleetId));
        });
        if (ctx == null) {
            return;
        }
        FleetRelease r = ctx.release();
        if (r.deploymentId != null && !r.halted) {
            follower.follow(r.deploymentId);
        }
        if (r.distributionSetId != null) {
            standalone(r, ctx.fleet());
        }
        QuarkusTransaction.requiringNew().run(() -> evaluate(releaseId));
    }

    /** The standalone half: membership, observation, the device budget, and the next batch. */
    private void standalone(FleetRelease r, Fleet fleet) {
        Set<String> members = problems.standaloneMembers(fleet.id);
        QuarkusTransaction.requiringNew().run(() -> {
            Set<String> known = new HashSet<>();
            for (ReleaseDevice d : ReleaseDevice.<ReleaseDevice>list("releaseId", r.id)) {
                known.add(d.controllerId);
                if (d.state == ReleaseDevice.State.PENDING && !members.contains(d.controllerId)) {
                    d.state = ReleaseDevice.State.LEFT;
                    d.detail = "no longer a standalone member before the set was sent: it left the channel,"
                            + " or matches a component of a system type now";
                }
            }
            for (String id : members) {
                if (!known.contains(id)) {
                    ReleaseDevice d = new ReleaseDevice();
                    d.releaseId = r.id;
                    d.controllerId = id;
                    d.persist();
                }
            }
        });

        List<ReleaseDevice> assigned = QuarkusTransaction.requiringNew().call(() ->
                ReleaseDevice.<ReleaseDevice>list("releaseId = ?1 and state = ?2", r.id, ReleaseDevice.State.ASSIGNED));
        Map<String, Outcome> outcomes = observer.observe(assigned.stream()
                .map(d -> new DeviceObserver.InFlight(d.controllerId, r.distributionSetId, d.actionId)).toList());
        Instant now = clock.instant();
        QuarkusTransaction.requiringNew().run(() -> {
            for (ReleaseDevice d : assigned) {
                ReleaseDevice fresh = ReleaseDevice.findById(new ReleaseDevice.Key(r.id, d.controllerId));
                Outcome o = outcomes.getOrDefault(d.controllerId, Outcome.RUNNING);
                if (o == Outcome.SUCCEEDED) {
                    fresh.state = ReleaseDevice.State.ON_SET;
                } else if (o == Outcome.FAILED || o == Outcome.GONE || o == Outcome.TAKEN_OVER) {
                    fresh.state = ReleaseDevice.State.FAILED;
                    fresh.detail = o == Outcome.GONE ? "its target was deleted in hawkBit"
                            : o == Outcome.TAKEN_OVER ? "given another set in hawkBit by someone else"
                            : "the device reported a failure";
                } else if (fresh.assignedAt != null && !now.isBefore(fresh.assignedAt.plus(config.defaultOrderTimeout()))) {
                    fresh.state = ReleaseDevice.State.FAILED;
                    fresh.detail = "no result within " + config.defaultOrderTimeout().toMinutes() + " min";
                }
            }
            FleetRelease fr = FleetRelease.findById(r.id);
            long failed = ReleaseDevice.count("releaseId = ?1 and state = ?2", r.id, ReleaseDevice.State.FAILED);
            if (!fr.halted && failed - fr.acceptedFailures > fleet.deviceMaxFailed) {
                halt(fr, FleetRelease.HaltCause.DEVICES, failed + " standalone device(s) failed, more than channel '"
                        + fleet.name + "' allows (" + fleet.deviceMaxFailed + ")");
            }
        });
        boolean halted = QuarkusTransaction.requiringNew().call(() -> FleetRelease.<FleetRelease>findById(r.id).halted);
        if (!halted) {
            sendBatch(r, fleet);
        }
    }

    private void sendBatch(FleetRelease r, Fleet fleet) {
        List<String> batch = QuarkusTransaction.requiringNew().call(() -> {
            long inFlight = ReleaseDevice.count("releaseId = ?1 and state = ?2", r.id, ReleaseDevice.State.ASSIGNED);
            int room = (int) Math.max(0, fleet.deviceBatchSize - inFlight);
            return ReleaseDevice.<ReleaseDevice>find("releaseId = ?1 and state = ?2 order by controllerId", r.id,
                    ReleaseDevice.State.PENDING).page(0, Math.max(room, 1)).list().stream()
                    .limit(room).map(d -> d.controllerId).toList();
        });
        if (batch.isEmpty()) {
            return;
        }
        DistributionSetRef set = hawkbit.distributionSet(r.distributionSetId).orElse(null);
        Set<String> already = new HashSet<>();
        if (set != null) {
            for (List<String> chunk : HawkbitGateway.idChunks(batch, id -> id, config.observeChunk(), config.observeQueryLength())) {
                already.addAll(hawkbit.inSyncOn(set, chunk));
            }
        }
        List<String> toAssign = batch.stream().filter(id -> !already.contains(id)).toList();
        AssignmentResult result = null;
        Set<String> dropped = new HashSet<>();
        if (!toAssign.isEmpty()) {
            try {
                result = hawkbit.assign(r.distributionSetId, toAssign);
            } catch (AssignmentIncompleteException e) {
                result = e.result();
                dropped.addAll(e.unknownTargets());
            }
        }
        AssignmentResult res = result;
        Instant now = clock.instant();
        QuarkusTransaction.requiringNew().run(() -> {
            for (String id : batch) {
                ReleaseDevice d = ReleaseDevice.findById(new ReleaseDevice.Key(r.id, id));
                if (d == null || d.state != ReleaseDevice.State.PENDING) {
                    continue;
                }
                if (already.contains(id)) {
                    d.state = ReleaseDevice.State.ALREADY;
                    d.detail = "already on " + r.distributionSet;
                } else if (dropped.contains(id)) {
                    d.state = ReleaseDevice.State.FAILED;
                    d.detail = "hawkBit no longer knows this target";
                } else {
                    d.state = ReleaseDevice.State.ASSIGNED;
                    d.assignedAt = now;
                    d.actionId = res == null ? null : res.actionByTarget().get(id);
                }
            }
        });
    }

    /** Halts on a failed orchestrator, and marks the release complete (or reopens it) from both halves. */
    private void evaluate(long releaseId) {
        FleetRelease r = FleetRelease.findById(releaseId);
        Fleet fleet = Fleet.findById(r.fleetId);
        SystemDeployment d = r.deploymentId == null ? null : SystemDeployment.findById(r.deploymentId);
        if (d != null && d.phase == DeploymentPhase.FAILED && !r.halted) {
            FleetView.SystemCounts c = ReleaseStatus.systems(r);
            halt(r, FleetRelease.HaltCause.SYSTEMS, c.rolledBack() + " system(s) rolled back, more than the orchestrator of '"
                    + fleet.name + "' allows (" + fleet.maxFailed + ")");
        }
        boolean devicesDone = r.distributionSetId == null || ReleaseDevice.count("releaseId = ?1 and state in ?2", r.id,
                List.of(ReleaseDevice.State.PENDING, ReleaseDevice.State.ASSIGNED)) == 0;
        boolean systemsDone = d == null || d.phase == DeploymentPhase.FINISHED;
        boolean complete = devicesDone && systemsDone && !r.halted;
        if (complete && r.completedAt == null) {
            r.completedAt = clock.instant();
            LOG.infof("Release %d of channel '%s' is complete: %s", r.id, fleet.name, ReleaseStatus.words(r));
        } else if (!complete && r.completedAt != null) {
            r.completedAt = null;
            LOG.infof("Release %d of channel '%s' reopened: %s", r.id, fleet.name, ReleaseStatus.words(r));
        }
    }

    private void halt(FleetRelease r, FleetRelease.HaltCause cause, String reason) {
        r.halted = true;
        r.haltCause = cause;
        r.haltReason = reason;
        LOG.warnf("Release %d halted: %s", r.id, reason);
    }
}
