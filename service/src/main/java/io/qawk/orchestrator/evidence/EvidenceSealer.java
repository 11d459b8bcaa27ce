package io.qawk.orchestrator.evidence;

import io.qawk.orchestrator.deployment.model.DeploymentEnded;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Seals a deployment's evidence record right after its end is committed ({@link #AFTER_THE_END}), on a thread of its
 * own; and, every {@code qawk.evidence.sweep-interval}, the records of ends that were not sealed
 * (the service stopped in between).
 */
@ApplicationScoped
public class EvidenceSealer {

    private static final Logger LOG = Logger.getLogger(EvidenceSealer.class);

    @Inject
    EvidenceStore store;

    /** How long after the end the record is sealed: the audit entry of the command that ended it is written by then. */
    static final Duration AFTER_THE_END = Duration.ofSeconds(2);

    private final ScheduledExecutorService sealing = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "qawk-evidence");
        t.setDaemon(true);
        return t;
    });

    void ended(@Observes(during = TransactionPhase.AFTER_SUCCESS) DeploymentEnded ended) {
        sealing.schedule(() -> seal(ended.deploymentId()), AFTER_THE_END.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Scheduled(every = "${qawk.evidence.sweep-interval:60s}", delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void sweep() {
        try {
            store.unsealed().forEach(this::seal);
        } catch (RuntimeException e) {
            LOG.warnf("Could not look for evidence records to seal (%s); tried again at the next sweep", e.getMessage());
        }
    }

    private void seal(long deploymentId) {
        try {
            store.seal(deploymentId);
        } catch (RuntimeException e) {
            LOG.errorf(e, "Could not seal the evidence record of deployment %d; the next sweep tries again", deploymentId);
        }
    }

    void stop(@Observes ShutdownEvent e) throws InterruptedException {
        sealing.shutdown();
        sealing.awaitTermination(10, TimeUnit.SECONDS);
    }
}
