package io.qawk.orchestrator.deployment.engine;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.qawk.orchestrator.common.MetricLabel;
import io.qawk.orchestrator.common.OwnedMeters;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunState;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

/**
 * What the deployment engine does, as Prometheus sees it. The engine and its store call the methods here; every
 * meter is registered at start-up (with zero) so dashboards and alert rules never point at a series that does not
 * exist yet. Counters fed from inside a transaction count only once it commits.
 *
 * <ul>
 *   <li>{@code qawk_engine_pass_seconds} (timer) – one pass over every active deployment, on this replica</li>
 *   <li>{@code qawk_engine_errors_total{kind}} – deployment passes that failed: {@code hawkbit_unavailable}
 *       (the deployment waits) or {@code internal} (a bug or the database; tried again next pass)</li>
 *   <li>{@code qawk_engine_last_pass_age_seconds} – seconds since this replica last completed a pass (since its
 *       start when it has not yet completed one)</li>
 *   <li>{@code qawk_run_duration_seconds{outcome}} (histogram) – a system's run from its start to its end,
 *       outcome {@code succeeded}, {@code rolled_back} or {@code rollback_failed}</li>
 *   <li>{@code qawk_rollbacks_total{cause}} – runs that started going back, cause {@code failure} or {@code manual}</li>
 *   <li>{@code qawk_rollbacks_failed_total} – rollbacks that ended with a device not back on its previous set</li>
 *   <li>{@code qawk_devices_assigned_total{direction}} – devices hawkBit accepted an assignment for, direction
 *       {@code forward} (the manifest's set) or {@code rollback} (the previous set)</li>
 *   <li>{@code qawk_order_gap_seconds{system_type}} (histogram) – per system and order after its first, from the last
 *       device of the order before finishing in hawkBit (hawkBit's time) to hawkBit accepting this order's assignment;
 *       registered when a system type's first gap is measured</li>
 *   <li>{@code qawk_unobserved_seconds_total{deployment}} – seconds of a deployment nobody observed (hawkBit away or
 *       hung, the service stopped, a replica frozen, paused), not counted toward its timeouts and soaks; registered
 *       with zero when the deployment is first observed</li>
 * </ul>
 */
@Startup
@ApplicationScoped
public class EngineMetrics {

    static final Duration[] RUN_BUCKETS = seconds(30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400);
    static final Duration[] GAP_BUCKETS = seconds(0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 30, 60, 300);
    static final Duration[] PASS_BUCKETS = seconds(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60);

    @Inject
    public MeterRegistry registry;

    @Inject
    public Clock clock;

    @Inject
    TransactionSynchronizationRegistry transactions;

    private final Map<RollbackCause, Counter> rollbacks = new EnumMap<>(RollbackCause.class);
    private final Map<RunState, Timer> runDurations = new EnumMap<>(RunState.class);
    private Counter rollbacksFailed;
    private Counter assignedForward;
    private Counter assignedRollback;
    private Counter hawkbitUnavailable;
    private Counter internalErrors;
    private Timer pass;
    private OwnedMeters gauges;
    private volatile Instant lastPass;
    private volatile Instant started;

    @PostConstruct
    public void register() {
        started = clock.instant();
        for (RollbackCause cause : RollbackCause.values()) {
            rollbacks.put(cause, Counter.builder("qawk.rollbacks")
                    .description("System runs that started going back to their previous sets, by cause")
                    .tag("cause", MetricLabel.of(cause)).register(registry));
        }
        rollbacksFailed = Counter.builder("qawk.rollbacks.failed")
                .description("Rollbacks that ended with a device not back on its previous set (needs a person)")
                .register(registry);
        assignedForward = assigned("forward");
        assignedRollback = assigned("rollback");
        hawkbitUnavailable = errors("hawkbit_unavailable");
        internalErrors = errors("internal");
        for (RunState end : new RunState[]{RunState.SUCCEEDED, RunState.ROLLED_BACK, RunState.ROLLBACK_FAILED}) {
            runDurations.put(end, Timer.builder("qawk.run.duration")
                    .description("How long a system's run took from its start to its end, by outcome")
                    .tag("outcome", MetricLabel.of(end))
                    .serviceLevelObjectives(RUN_BUCKETS)
                    .register(registry));
        }
        pass = Timer.builder("qawk.engine.pass")
                .description("One pass of the deployment engine over every active deployment")
                .serviceLevelObjectives(PASS_BUCKETS)
                .register(registry);
        gauges = new OwnedMeters(registry);
        gauges.register(Gauge.builder("qawk.engine.last.pass.age", this, EngineMetrics::lastPassAgeSeconds)
                .description("Seconds since this replica's deployment engine last completed a pass (since start before the first)")
                .baseUnit("seconds")::register);
    }

    @PreDestroy
    public void unregister() {
        gauges.removeAll();
    }

    // ------------------------------------------------------------------------------------- engine passes

    /** Call when a pass begins; hand the result to {@link #passEnded(long)}. */
    public long passStarted() {
        return System.nanoTime();
    }

    /** A pass has completed (whatever happened to single deployments in it); a pass that threw is not completed. */
    public void passEnded(long startNanos) {
        pass.record(Duration.ofNanos(System.nanoTime() - startNanos));
        lastPass = clock.instant();
    }

    /** The pass of one deployment failed because hawkBit was unavailable. */
    public void hawkbitUnavailable() {
        hawkbitUnavailable.increment();
    }

    /** The pass of one deployment failed for any other reason. */
    public void engineError() {
        internalErrors.increment();
    }

    double lastPassAgeSeconds() {
        Instant since = lastPass != null ? lastPass : started;
        return since == null ? 0 : Math.max(0, Duration.between(since, clock.instant()).toMillis() / 1000.0);
    }

    // ------------------------------------------------------------------------------------- runs

    /**
     * A run's state was changed (call after the change, inside the transaction that stores it): counts a rollback
     * that starts, a rollback that failed, and the run's duration when it ended.
     *
     * @param ended whether the run has just ended (its {@code endedAt} set in this change)
     */
    public void runChanged(RunState before, RunState after, RollbackCause cause, Instant startedAt, Instant endedAt,
                           boolean ended) {
        if (before == after && !ended) {
            return;
        }
        afterCommit(() -> {
            if (after == RunState.ROLLING_BACK && before != RunState.ROLLING_BACK) {
                rollbacks.get(cause == null ? RollbackCause.FAILURE : cause).increment();
            }
            if (after == RunState.ROLLBACK_FAILED && before != RunState.ROLLBACK_FAILED) {
                rollbacksFailed.increment();
            }
            Timer timer = runDurations.get(after);
            if (ended && timer != null && startedAt != null && endedAt != null) {
                timer.record(Duration.between(startedAt, endedAt).abs());
            }
        });
    }

    /** hawkBit accepted (or, after an interruption, was found to hold) an assignment for {@code count} device(s). */
    public void devicesAssigned(boolean rollback, int count) {
        if (count > 0) {
            afterCommit(() -> (rollback ? assignedRollback : assignedForward).increment(count));
        }
    }

    /**
     * hawkBit accepted an order's assignment for a system of {@code systemType}, {@code gap} after the last device of the
     * order before finished in hawkBit (a negative gap, hawkBit's clock ahead of Qawk's, counts as zero).
     */
    public void orderGap(String systemType, Duration gap) {
        Timer.builder("qawk.order.gap")
                .description("From the last device of an order finishing in hawkBit to hawkBit accepting the next"
                        + " order's assignment, per system, by system type")
                .tag("system_type", systemType)
                .serviceLevelObjectives(GAP_BUCKETS)
                .register(registry)
                .record(gap.isNegative() ? Duration.ZERO : gap);
    }

    /** The deployment was observed, {@code seconds} after a stretch nobody observed (0 when there was none). */
    public void observed(long deploymentId, long seconds) {
        Counter c = Counter.builder("qawk.unobserved.seconds")
                .description("Seconds of a deployment nobody observed, not counted toward its devices' timeouts or soaks")
                .tag("deployment", Long.toString(deploymentId)).register(registry);
        if (seconds > 0) {
            c.increment(seconds);
        }
    }

    // ------------------------------------------------------------------------------------- helpers

    private void afterCommit(Runnable r) {
        try {
            if (transactions != null && transactions.getTransactionStatus() == Status.STATUS_ACTIVE) {
                transactions.registerInterposedSynchronization(new Synchronization() {
                    @Override
                    public void beforeCompletion() {
                        // nothing to do
                    }

                    @Override
                    public void afterCompletion(int status) {
                        if (status == Status.STATUS_COMMITTED) {
                            r.run();
                        }
                    }
                });
                return;
            }
        } catch (RuntimeException e) {
            // no usable transaction: count now
        }
        r.run();
    }

    private Counter assigned(String direction) {
        return Counter.builder("qawk.devices.assigned")
                .description("Devices hawkBit accepted an assignment for: the manifest's set (forward) or the previous set (rollback)")
                .tag("direction", direction).register(registry);
    }

    private Counter errors(String kind) {
        return Counter.builder("qawk.engine.errors")
                .description("Deployment passes that failed: hawkBit unavailable (the deployment waits) or internal")
                .tag("kind", kind).register(registry);
    }

    private static Duration[] seconds(double... values) {
        Duration[] out = new Duration[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = Duration.ofMillis(Math.round(values[i] * 1000));
        }
        return out;
    }
}
