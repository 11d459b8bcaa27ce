package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.store.RunStore;
import io.qawk.orchestrator.pass.EngineConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pass's step "account for unobserved time": time the engine could not look at a deployment's devices does not
 * count toward their timeouts or a soak. A pass that cannot observe marks the deployment unobserved from its last
 * observation; the pass that observes it again has the store extend every device in flight and every soak by that
 * long (and say so in the timeline). A paused deployment is not looked at, so its time is unobserved too.
 */
@ApplicationScoped
public class UnobservedTime {

    private static final Logger LOG = Logger.getLogger(UnobservedTime.class);

    @Inject
    RunStore store;

    @Inject
    EngineConfig config;

    /**
     * When this replica last observed each deployment. Only a hint for where an unobserved stretch began; what
     * counts is stored ({@link RunStore#markUnobserved}), and without the hint it begins at the failed pass.
     */
    private final Map<Long, Instant> lastObserved = new ConcurrentHashMap<>();

    /** The pass could not observe the deployment ({@code cause} in operators' words): from its last observation on. */
    void notObserved(long deploymentId, Instant now, String cause) {
        try {
            store.markUnobserved(deploymentId, lastObservation(deploymentId, now), cause);
        } catch (RuntimeException e) {
            LOG.warnf("Could not record that deployment %d is not observed: %s", deploymentId, e.getMessage());
        }
    }

    /**
     * The deployment was observed at {@code at}: a paused one's time still does not count; otherwise any unobserved
     * stretch before is accounted for. Returns the snapshot to plan with: read again when timeouts were extended.
     */
    RunStore.Snapshot observed(RunStore.Snapshot snap, Instant at) {
        long id = snap.deploymentId();
        RunStore.Snapshot out = snap;
        if (snap.phase() == DeploymentPhase.PAUSED) {
            store.markUnobserved(id, lastObservation(id, at), "paused");
        } else if (store.observedAgain(id, at)) {
            out = store.load(id); // the same devices in flight, with their timeouts extended
        }
        lastObserved.put(id, at);
        return out;
    }

    /** The deployment ended: nothing more to account for. */
    void forget(long deploymentId) {
        lastObserved.remove(deploymentId);
    }

    /**
     * When this replica last observed the deployment, if that was the pass before (within two intervals and a
     * minute): an older one means another replica drove it meanwhile, and the stretch begins {@code now}.
     */
    private Instant lastObservation(long deploymentId, Instant now) {
        Instant last = lastObserved.get(deploymentId);
        Instant recent = now.minus(config.interval().multipliedBy(2)).minusSeconds(60);
        return last == null || last.isBefore(recent) || last.isAfter(now) ? now : last;
    }
}
