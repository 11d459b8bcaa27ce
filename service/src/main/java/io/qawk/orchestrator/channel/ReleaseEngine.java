package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.common.EngineLock;
import io.qawk.orchestrator.deployment.ChannelDeployments;
import io.qawk.orchestrator.observation.DeviceObserver;
import io.qawk.orchestrator.observation.EngineConfig;
import io.qawk.orchestrator.observation.InFlight;
import io.qawk.orchestrator.observation.Outcome;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Drives the current release of every channel: the set to the standalone devices in batches (skipping those on it),
 * the orchestrator following the channel, halts when a budget is exceeded, and completion when both halves are done.
 * A halted release never resumes itself. The thin loop around {@link ReleasePlanner}: each step loads
 * ({@link ReleaseStore}), asks the planner, stores its decision, and only then calls hawkBit.
 */
@ApplicationScoped
public class ReleaseEngine {

    private static final Logger LOG = Logger.getLogger(ReleaseEngine.class);

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    DeviceObserver observer;

    @Inject
    ChannelDeployments deployments;

    @Inject
    ReleaseStore store;

    @Inject
    EngineLock locks;

    @Inject
    EngineConfig config;

    @Inject
    ChannelProblems problems;

    @Inject
    ChannelMetrics metrics;

    @Inject
    Clock clock;

    private final ReentrantLock passLock = new ReentrantLock();

    @Scheduled(every = "${qawk.engine.interval:10s}", delayed = "${qawk.engine.initial-delay:3s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = HawkbitNotConfigured.class)
    void scheduled() {
        passAll();
    }

    public void passAll() {
        passLock.lock();
        try {
            for (long id : store.currentReleaseIds()) {
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
        ReleaseStore.Current current = store.current(releaseId);
        if (current == null) {
            return;
        }
        ChannelRelease r = current.release();
        if (ReleasePlanner.followsChannel(r.halted, r.deploymentId)) {
            deployments.follow(r.deploymentId);
        }
        if (r.distributionSetId != null) {
            standalone(r, current.channel());
        }
        QuarkusTransaction.requiringNew().run(() -> {
            ReleaseStore.ToEvaluate e = store.toEvaluate(releaseId);
            if (e == null) {
                return;
            }
            store.save(releaseId, ReleasePlanner.evaluate(e.release(), e.phase(), e.rolledBack(), e.hasSet(),
                    e.devicesOpen()), clock.instant());
        });
    }

    /** The standalone half: membership, observation, the device budget, and the next batch. */
    private void standalone(ChannelRelease r, Channel channel) {
        Set<String> members = problems.standaloneMembers(channel.id);
        QuarkusTransaction.requiringNew().run(() ->
                store.saveMembership(r.id, ReleasePlanner.membership(store.devices(r.id), members)));

        List<ReleasePlanner.Device> assigned = store.assigned(r.id);
        Map<String, Outcome> outcomes = observer.observe(assigned.stream()
                .map(d -> new InFlight(d.controllerId(), r.distributionSetId, d.actionId())).toList());
        Instant now = clock.instant();
        List<String> batch = QuarkusTransaction.requiringNew().call(() -> {
            ReleasePlanner.Observed observed = ReleasePlanner.observed(store.planned(r.id, channel), assigned, outcomes,
                    store.failed(r.id), now, config.defaultOrderTimeout());
            store.save(r.id, observed.changes(), null);
            observed.halt().ifPresent(h -> store.halt(r.id, h));
            return store.pending(r.id, observed.batchSize());
        });
        if (!batch.isEmpty()) {
            send(r, batch);
        }
    }

    /** Sends the batch its set (not to those hawkBit says run it already) and stores what hawkBit answered. */
    private void send(ChannelRelease r, List<String> batch) {
        Set<String> already = alreadyOnSet(r.distributionSetId, batch);
        List<String> toAssign = ReleasePlanner.toAssign(batch, already);
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
        List<ReleasePlanner.Change> sent = ReleasePlanner.sent(batch, already, dropped,
                result == null ? Map.of() : result.actionByTarget(), r.distributionSet, clock.instant());
        QuarkusTransaction.requiringNew().run(() -> store.save(r.id, sent, ReleaseDevice.State.PENDING));
    }

    /** Of these devices, those hawkBit says run the set already (installed and in sync). */
    private Set<String> alreadyOnSet(long setId, List<String> ids) {
        Set<String> already = new HashSet<>();
        DistributionSetRef set = hawkbit.distributionSet(setId).orElse(null);
        if (set != null) {
            for (List<String> chunk : HawkbitGateway.idChunks(ids, id -> id, config.observeChunk(),
                    config.observeQueryLength())) {
                already.addAll(hawkbit.inSyncOn(set, chunk));
            }
        }
        return already;
    }
}
