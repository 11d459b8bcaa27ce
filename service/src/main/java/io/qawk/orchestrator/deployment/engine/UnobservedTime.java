package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.observation.EngineConfig;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.plan.ObservationGap;
import io.qawk.orchestrator.deployment.store.ObservationStore;
import io.qawk.orchestrator.deployment.store.DeploymentSnapshot;
import io.qawk.orchestrator.deployment.store.RunStore;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The pass's step "account for unobserved time" (issue 32): a device's order and verify timeouts and a system's soak
 * count only time for which Qawk held a fresh observation of it. Each pass that observes a deployment stores when its
 * questions were sent and by which service process; the next pass — here, on another replica, or after a restart —
 * finds a longer gap ({@link ObservationGap}) and has every timeout and soak extended by it, none of them due before
 * the first observation after it and a grace for the devices to report. A pass that cannot observe, or a paused
 * deployment, marks the stretch as it happens, with its cause.
 */
@ApplicationScoped
public class UnobservedTime {

    private static final Logger LOG = Logger.getLogger(UnobservedTime.class);

    /** hawkBit's 429s shorter than this between two observations leave the timeline alone (a second rounds up). */
    static final Duration RATE_LIMITED_AT_LEAST = Duration.ofSeconds(1);

    /** This service process, as stored with each observation: a restarted or other replica is another observer. */
    private final String observer = ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);

    @Inject
    RunStore store;

    @Inject
    ObservationStore observations;

    @Inject
    EngineConfig config;

    @Inject
    EngineMetrics metrics;

    @Inject
    Clock clock;

    private volatile Instant startedAt;

    /** Since when this process's passes find Qawk's database unreachable; null while they do not. */
    private final AtomicReference<Instant> databaseAwaySince = new AtomicReference<>();

    /**
     * How long hawkBit kept this process's passes waiting for answers, summed over every deployment's pass since the
     * process started, in nanoseconds. One pass asks for its deployments one after the other, so a hawkBit that hangs
     * holds up the deployments behind the one that waits as well: their gap is hawkBit's doing too.
     */
    private final AtomicLong hawkbitWaitedNanos = new AtomicLong();

    /** {@link #hawkbitWaitedNanos} as it stood when this process last observed each deployment. */
    private final Map<Long, Long> waitedAtObservation = new ConcurrentHashMap<>();

    /** {@link HawkbitGateway#rateLimited()} as it stood when this process last observed each deployment. */
    private final Map<Long, Long> limitedAtObservation = new ConcurrentHashMap<>();

    @Inject
    HawkbitGateway hawkbit;

    void started(@Observes StartupEvent e) {
        startedAt = clock.instant();
    }

    /** The pass could not observe the deployment ({@code cause} in operators' words): not observed since its last observation. */
    void notObserved(long deploymentId, String cause) {
        try {
            observations.markUnobserved(deploymentId, clock.instant(), cause);
        } catch (RuntimeException e) {
            LOG.warnf("Could not record that deployment %d is not observed: %s", deploymentId, e.getMessage());
        }
    }

    /**
     * The deployment was observed with questions sent at {@code askedAt}: a paused one's time still does not count;
     * otherwise the observation is stored and a stretch nobody observed before it accounted for. Returns the snapshot
     * to plan with: read again when timeouts were extended.
     */
    DeploymentSnapshot observed(DeploymentSnapshot snap, Instant askedAt) {
        long id = snap.deploymentId();
        if (snap.phase() == DeploymentPhase.PAUSED) {
            // a paused deployment's devices are not looked at, so its time does not count toward their timeouts
            observations.markUnobserved(id, askedAt, "paused");
            return snap;
        }
        long waitedNow = hawkbitWaitedNanos.get();
        Long waitedThen = waitedAtObservation.put(id, waitedNow);
        ObservationGap.Observer me = new ObservationGap.Observer(observer, startedAt == null ? askedAt : startedAt,
                waitedThen == null ? null : Duration.ofNanos(waitedNow - waitedThen), databaseAwaySince.get());
        long limitedNow = hawkbit.rateLimited().toNanos();
        Long limitedThen = limitedAtObservation.put(id, limitedNow);
        Duration limited = Duration.ofNanos(limitedThen == null ? 0 : limitedNow - limitedThen);
        Optional<ObservationGap.Stretch> stretch = QuarkusTransaction.requiringNew().call(() -> {
            ObservationStore.Watched watched = observations.lock(id);
            Optional<ObservationGap.Stretch> s = ObservationGap.of(watched.last(), watched.marked(), askedAt,
                    freshFor(), me);
            if (s.isEmpty() && limited.compareTo(RATE_LIMITED_AT_LEAST) >= 0) {
                // hawkBit's 429s held the passes: busy, not the devices' time (one entry per pass that waited)
                s = Optional.of(new ObservationGap.Stretch(askedAt.minus(limited), askedAt, ObservationGap.RATE_LIMITED));
            }
            observations.observed(id, askedAt, observer);
            s.ifPresent(gap -> observations.extend(id, gap, ObservationGap.notBefore(gap, config.graceAfterGap()),
                    snap.settings().orderTimeout(), snap.settings().verifyTimeout()));
            return s;
        });
        metrics.observed(id, stretch.map(ObservationGap.Stretch::seconds).orElse(0L));
        stretch.ifPresent(s -> LOG.infof("Deployment %d was not observed %s–%s (%s): its timeouts and soaks extended by"
                + " %d s", id, s.from(), s.to(), s.cause(), s.seconds()));
        DeploymentSnapshot again = stretch.isPresent() ? store.load(id) : null;
        return again == null ? snap : again;
    }

    /**
     * How long hawkBit kept this pass of a deployment waiting, at most: counted toward the gap every deployment's next
     * observation finds, since one pass asks for all of them one after the other.
     */
    void passEnded(long deploymentId, Duration hawkbitWait) {
        hawkbitWaitedNanos.addAndGet(hawkbitWait.toNanos());
    }

    /**
     * A pass failed because Qawk's database was unreachable: the stretch the next observation finds is named for it
     * ({@link io.qawk.orchestrator.common.DatabaseUnreachable#CAUSE}), as a stretch hawkBit was away is.
     */
    void databaseUnreachable() {
        databaseAwaySince.compareAndSet(null, clock.instant());
    }

    /** Since when passes found the database unreachable, null if they did not. */
    Instant databaseAwaySince() {
        return databaseAwaySince.get();
    }

    /** A full pass went through after the database was back (since {@code since}): the outage is accounted for. */
    void databaseBack(Instant since) {
        databaseAwaySince.compareAndSet(since, null);
    }

    /** The deployment ended: nothing more to account for. */
    void forget(long deploymentId) {
        waitedAtObservation.remove(deploymentId);
        limitedAtObservation.remove(deploymentId);
    }

    /** Only the deployments still followed are remembered: one that ended since is forgotten. */
    void keepOnly(Collection<Long> followed) {
        waitedAtObservation.keySet().retainAll(followed);
        limitedAtObservation.keySet().retainAll(followed);
    }

    /** An observation is fresh for {@code unobserved-after}, and at least an idle interval and a few seconds. */
    private Duration freshFor() {
        Duration min = config.interval().plusSeconds(5);
        return config.unobservedAfter().compareTo(min) < 0 ? min : config.unobservedAfter();
    }
}
