package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.engine.DeviceObserver;
import io.qawk.orchestrator.engine.EngineConfig;
import io.qawk.orchestrator.engine.EngineLock;
import io.qawk.orchestrator.engine.EngineWake;
import io.qawk.orchestrator.engine.Outcome;
import io.qawk.orchestrator.engine.PassLoop;
import io.qawk.orchestrator.hawkbit.ActionOutcome;
import io.qawk.orchestrator.hawkbit.AssignmentIncompleteException;
import io.qawk.orchestrator.hawkbit.AssignmentRefusedException;
import io.qawk.orchestrator.hawkbit.AssignmentResult;
import io.qawk.orchestrator.hawkbit.HawkbitException;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.HawkbitRequestException;
import io.qawk.orchestrator.hawkbit.HawkbitUnavailableException;
import io.qawk.orchestrator.hawkbit.TargetNotFoundException;
import io.qawk.orchestrator.inventory.HawkbitNotConfigured;
import io.qawk.orchestrator.window.CentreWindows;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The thin loop around {@link RunPlanner}: for each deployment that has something to follow, under a Postgres lock,
 * it observes hawkBit, plans each run, stores the decisions (intent before any assignment), sends the assignments
 * in bulk (one call per distribution set), and re-derives the phase. Each step can be repeated after a crash.
 * The walk is one way: engine → planner ({@link RunPlanner}, {@link RunScheduler}) → store → gateway; the store
 * never plans and never calls back.
 *
 * <p>It is longer than most classes (about 470 lines) because two steps of the pass that need hawkBit's answers in
 * detail live here with it: recovering unconfirmed intents (which action is ours) and sending in bulk (what a
 * refusal, an incomplete answer or hawkBit away mean for each device). What verifying asks of hawkBit is
 * {@link DeviceVerifier}'s and {@link SystemHealth}'s. When passes come is {@link PassLoop}'s; this class only starts
 * it, wakes it after commands and tells it whether devices are due.
 */
@ApplicationScoped
public class DeploymentEngine {

    private static final Logger LOG = Logger.getLogger(DeploymentEngine.class);

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    DeviceObserver observer;

    @Inject
    Photographer photographer;

    @Inject
    RunStore store;

    @Inject
    EngineLock locks;

    @Inject
    Clock clock;

    @Inject
    EngineConfig config;

    @Inject
    EngineMetrics metrics;

    @Inject
    DeviceVerifier verifier;

    @Inject
    SystemHealth health;

    private final ReentrantLock passLock = new ReentrantLock();

    /**
     * When this replica last observed each deployment. Only a hint for where an unobserved stretch began; what
     * counts is stored ({@link RunStore#markUnobserved}), and without the hint it begins at the failed pass.
     */
    private final Map<Long, Instant> lastObserved = new ConcurrentHashMap<>();

    @Inject
    HawkbitNotConfigured notConfigured;

    /** When passes come: at once when woken, every busy interval while devices are due, else every interval. */
    private PassLoop loop;

    /** Whether a deployment of the pass under way (guarded by {@link #passLock}) has devices due from hawkBit. */
    private boolean due;

    void start(@Observes StartupEvent e) {
        loop = new PassLoop(this::loopPass, config.busyInterval(), config.interval(), config.initialDelay());
        loop.start("qawk-deployment-engine");
    }

    void stop(@Observes ShutdownEvent e) throws InterruptedException {
        if (loop != null) {
            loop.stop(Duration.ofSeconds(30));
        }
    }

    /**
     * A deployment was started or commanded: the next pass comes now, not at the next tick. Called once the command's
     * transaction committed, so the pass sees it.
     */
    void wake(@Observes(during = TransactionPhase.AFTER_SUCCESS) EngineWake wake) {
        if (loop != null) {
            loop.wake();
        }
    }

    /** The loop's pass, with a request context as scheduled methods have; true when devices are due. */
    private boolean loopPass() {
        if (notConfigured.test(null)) {
            return false;
        }
        ManagedContext requests = Arc.container().requestContext();
        requests.activate();
        try {
            passLock.lock();
            try {
                passAll();
                return due;
            } finally {
                passLock.unlock();
            }
        } finally {
            requests.terminate();
        }
    }

    /** One pass over every deployment that has something to follow; returns how many were driven. */
    public int passAll() {
        passLock.lock();
        long passStarted = metrics.passStarted();
        due = false;
        try {
            int driven = 0;
            for (long id : store.activeDeploymentIds()) {
                try {
                    if (pass(id)) {
                        driven++;
                    }
                } catch (HawkbitUnavailableException e) {
                    metrics.hawkbitUnavailable();
                    LOG.warnf("Deployment %d waits: hawkBit is unavailable (%s)", id, e.getMessage());
                } catch (RuntimeException e) {
                    metrics.engineError();
                    LOG.errorf(e, "Pass of deployment %d failed; it is tried again next pass", id);
                }
            }
            metrics.passEnded(passStarted);
            return driven;
        } finally {
            passLock.unlock();
        }
    }

    /** One pass of one deployment; false when another replica holds it. */
    boolean pass(long deploymentId) {
        Optional<EngineLock.Held> lock = locks.tryLock((int) deploymentId);
        if (lock.isEmpty()) {
            return false;
        }
        try (EngineLock.Held held = lock.get()) {
            RunStore.Snapshot snap = store.load(deploymentId);
            if (snap == null) {
                lastObserved.remove(deploymentId);
                return true;
            }
            Map<String, Outcome> outcomes;
            Map<String, Boolean> verified;
            Map<String, String> refused = new HashMap<>();
            Map<Long, Health> verdicts;
            try {
                if (!snap.intents().isEmpty()) {
                    recoverIntents(snap);
                    snap = store.load(deploymentId);
                }
                outcomes = new HashMap<>(observer.observe(snap.inFlight()));
                verified = verifier.matches(DeviceVerifier.toVerify(snap, outcomes), refused);
                verdicts = health.check(SystemHealth.soaking(snap), snap.metricGate());
            } catch (HawkbitException away) {
                unobserved(deploymentId, away instanceof HawkbitUnavailableException ? "hawkBit unreachable"
                        : "hawkBit refused Qawk's requests");
                throw away;
            }
            Instant observedAt = clock.instant();
            if (snap.phase() == DeploymentPhase.PAUSED) {
                // a paused deployment's devices are not looked at, so its time does not count toward their timeouts
                store.markUnobserved(deploymentId, lastObservation(deploymentId, observedAt), "paused");
            } else if (store.observedAgain(deploymentId, observedAt)) {
                snap = store.load(deploymentId); // the same devices in flight, with their timeouts extended
            }
            lastObserved.put(deploymentId, observedAt);
            for (String left : snap.leftTheirSystem()) {
                outcomes.put(left, Outcome.LEFT);
            }
            Map<String, String> takenBy = takenBy(outcomes);
            Map<String, String> reports = new HashMap<>(reportsOfFailing(snap, verified, refused.keySet()));
            reports.putAll(refused);
            Verification verification = new Verification(snap.verifyTimeout(), snap.soak(), verified, reports, null);
            List<RunPlanner.Assign> toSend = new ArrayList<>();
            Map<String, Long> runOfDevice = new LinkedHashMap<>();
            Instant now = clock.instant();
            List<Long> toPlan = new ArrayList<>();
            for (RunStore.RunView run : snap.runsToPlan()) {
                // nothing for the planner to decide: only waiting for hawkBit, with no news (and no manual rollback)
                boolean onlyWaiting = run.state().underWay()
                        && RunPlanner.onlyWaiting(run.devices(), outcomes, now, snap.orderTimeout());
                if (!onlyWaiting) {
                    toPlan.add(run.id());
                }
            }
            for (List<Long> batch : DeviceObserver.chunks(toPlan, config.runsPerTransaction())) {
                toSend.addAll(planAndSave(() -> store.lockToPlan(batch), outcomes, takenBy, snap.orderTimeout(),
                        verification, verdicts, runOfDevice));
            }
            Map<Long, List<RunDevice>> photos = photographer.photograph(runsToStart(deploymentId));
            for (List<Long> batch : DeviceObserver.chunks(List.copyOf(photos.keySet()), config.runsPerTransaction())) {
                Map<Long, List<RunDevice>> some = new LinkedHashMap<>();
                batch.forEach(id -> some.put(id, photos.get(id)));
                try {
                    // the photographs stored before anything is sent; the first orders planned in the same transaction
                    toSend.addAll(planAndSave(() -> store.storePhotographs(some), Map.of(), Map.of(),
                            snap.orderTimeout(), new Verification(snap.verifyTimeout(), snap.soak(), Map.of(), Map.of(),
                                    null), Map.of(), runOfDevice));
                } catch (RuntimeException e) {
                    if (!anotherDriverWon(e)) {
                        throw e;
                    }
                    // another replica's deployment started one of these systems first: nothing was stored or sent;
                    // next pass the gate sees the other run and these wait for it with a reason
                    metrics.engineError();
                    LOG.warnf("Deployment %d: another deployment started one of %s first; they wait", deploymentId, batch);
                }
            }
            send(toSend, runOfDevice);
            store.refreshPhase(deploymentId);
            // devices sent to, waiting for hawkBit's answer or for their verification: the next pass comes soon
            due |= snap.phase() != DeploymentPhase.PAUSED && (!snap.inFlight().isEmpty() || !toSend.isEmpty()
                    || !verified.isEmpty() || !snap.intents().isEmpty());
            return true;
        }
    }

    /**
     * In one transaction: the runs {@code load} locks are each planned by {@link RunPlanner} and its decision stored
     * (intent first: devices to be sent are stored as assigning); returns the assignments to send after the commit.
     */
    private List<RunPlanner.Assign> planAndSave(Supplier<List<RunStore.ToPlan>> load, Map<String, Outcome> outcomes,
                                                Map<String, String> takenBy, Duration timeout,
                                                Verification verification, Map<Long, Health> verdicts,
                                                Map<String, Long> runOfDevice) {
        return QuarkusTransaction.requiringNew().call(() -> {
            List<RunPlanner.Assign> out = new ArrayList<>();
            for (RunStore.ToPlan run : load.get()) {
                Instant now = clock.instant();
                RunPlanner.Decision decision = RunPlanner.plan(run.input(outcomes, takenBy, now, timeout, verification,
                        verdicts));
                out.addAll(store.save(run, decision, now, runOfDevice));
            }
            return out;
        });
    }

    /**
     * Which pending systems start now, in one transaction with the deployment locked: {@link RunScheduler} picks the
     * candidates (not those whose centre's maintenance window is closed now) and the free slots, the store asks the
     * start gate of them, and the scheduler picks among those left.
     */
    private List<Long> runsToStart(long deploymentId) {
        return QuarkusTransaction.requiringNew().call(() -> {
            RunStore.ToStart s = store.lockToStart(deploymentId);
            SystemDeployment d = s.deployment();
            CentreWindows windows = CentreWindows.of(d.windows, clock.instant());
            List<DeploymentPhase.RunSummary> candidates = RunScheduler.candidates(d.phase, d.maxFailed, d.byCentre,
                    s.halted(), s.runs(), windows::closed);
            int slots = RunScheduler.slots(d.maxParallel, s.runs());
            if (candidates.isEmpty() || slots == 0) {
                return List.<Long>of();
            }
            RunStore.Gated gated = store.holdBack(d, s.runs(), candidates, slots);
            return RunScheduler.toStart(d.phase, d.maxParallel, d.maxFailed, d.byCentre, s.halted(), gated.runs(),
                    gated.blocked(), windows::closed).stream().map(DeploymentPhase.RunSummary::id).toList();
        });
    }

    /**
     * For devices about to fail verification (not matching, their verify timeout run out by the time this pass plans),
     * what they report instead: words only, so hawkBit away here leaves them out rather than holding the pass.
     */
    private Map<String, String> reportsOfFailing(RunStore.Snapshot snap, Map<String, Boolean> verified,
                                                 Set<String> refused) {
        List<DeviceVerifier.Ask> failing = DeviceVerifier.failing(snap, verified, clock.instant().plus(config.interval()))
                .stream().filter(a -> !refused.contains(a.controllerId())).toList();
        if (failing.isEmpty()) {
            return Map.of();
        }
        try {
            return verifier.reports(failing);
        } catch (HawkbitException away) {
            LOG.warnf("What %d device(s) report instead of their verification query could not be read: %s",
                    failing.size(), away.getMessage());
            return Map.of();
        }
    }

    /** For devices someone else gave another set while ours was open: that set's name, as hawkBit says it. */
    private Map<String, String> takenBy(Map<String, Outcome> outcomes) {
        Map<String, String> out = new LinkedHashMap<>();
        outcomes.forEach((id, o) -> {
            if (o == Outcome.TAKEN_OVER) {
                try {
                    hawkbit.assignedSet(id).ifPresent(set -> out.put(id, set.label()));
                } catch (TargetNotFoundException gone) {
                    // named as "another set"
                }
            }
        });
        return out;
    }

    /** The unique index {@code system_run_one_driver} refused a second run under way for one system. */
    static boolean anotherDriverWon(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("system_run_one_driver")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
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

    /** The pass could not observe the deployment: from its last observation on, its time does not count. */
    private void unobserved(long deploymentId, String cause) {
        try {
            store.markUnobserved(deploymentId, lastObservation(deploymentId, clock.instant()), cause);
        } catch (RuntimeException e) {
            LOG.warnf("Could not record that deployment %d is not observed: %s", deploymentId, e.getMessage());
        }
    }

    /**
     * Devices whose assignment was decided in an earlier pass but not confirmed (the service died, or hawkBit was
     * down, between storing the intent and hawkBit's answer): adopt hawkBit's action when it has one, so nothing is
     * assigned twice, else let the planner send it again.
     */
    private void recoverIntents(RunStore.Snapshot snap) {
        for (RunDevice d : snap.intents()) {
            Optional<IntentRecovery.Action> action;
            try {
                action = actionOfIntent(d);
            } catch (TargetNotFoundException gone) {
                store.confirmAssigned(d.runId, d.controllerId, null, clock.instant(), "its target was deleted in hawkBit");
                continue;
            }
            if (action.isPresent()) {
                store.confirmAssigned(d.runId, d.controllerId, action.get().id(),
                        action.get().createdAt() == null ? clock.instant() : action.get().createdAt(), null);
            } else {
                store.revertIntent(d.runId, d.controllerId);
            }
        }
    }

    /** hawkBit's action for an unconfirmed intent, if hawkBit took the assignment: see {@link IntentRecovery#adopted}. */
    private Optional<IntentRecovery.Action> actionOfIntent(RunDevice d) {
        IntentRecovery.Intent intent = new IntentRecovery.Intent(d.setInFlight(),
                d.state == DeviceState.ROLLBACK_ASSIGNING, d.intentAt, d.actionId);
        List<IntentRecovery.Action> actions = hawkbit.actions(d.controllerId, null).stream()
                .map(a -> new IntentRecovery.Action(a.id(), a.createdAt(), a.distributionSetId())).toList();
        return IntentRecovery.adopted(intent, actions, a -> {
            ActionOutcome outcome = hawkbit.actionOutcome(d.controllerId, a.id());
            return new IntentRecovery.DeviceNow(outcome,
                    outcome == ActionOutcome.RUNNING
                            ? hawkbit.assignedSet(d.controllerId).map(s -> s.id()).orElse(null) : null,
                    outcome == ActionOutcome.SUCCEEDED
                            ? hawkbit.installedSet(d.controllerId).map(s -> s.id()).orElse(null) : null);
        });
    }

    /**
     * Sends the decided assignments, one hawkBit call per set, and records hawkBit's actions. A set hawkBit refuses
     * fails the devices it was for (their runs go back on the next pass); hawkBit away only delays, and neither stops
     * the other sets from being sent.
     */
    private void send(List<RunPlanner.Assign> assignments, Map<String, Long> runOfDevice) {
        Map<Long, List<RunPlanner.Assign>> bySet = assignments.stream()
                .collect(Collectors.groupingBy(RunPlanner.Assign::setId, LinkedHashMap::new, Collectors.toList()));
        for (Map.Entry<Long, List<RunPlanner.Assign>> e : bySet.entrySet()) {
            List<String> ids = e.getValue().stream().map(RunPlanner.Assign::controllerId).distinct().toList();
            List<RunPlanner.Assign> sent = e.getValue();
            AssignmentResult result;
            Set<String> dropped = new HashSet<>();
            try {
                result = hawkbit.assign(e.getKey(), ids);
            } catch (AssignmentRefusedException refused) {
                Set<String> refusedIds = new HashSet<>();
                for (AssignmentRefusedException.Refusal r : refused.refusals()) {
                    LOG.warnf("hawkBit refused set %d (%s) for %d device(s): %s", e.getKey(), refused.setLabel(),
                            r.controllerIds().size(), r.statusAndReason());
                    store.recordRefusal(refused.setLabel(), r.controllerIds(), r.statusAndReason(), runOfDevice,
                            clock.instant());
                    refusedIds.addAll(r.controllerIds());
                }
                sent = sent.stream().filter(a -> !refusedIds.contains(a.controllerId())).toList();
                if (sent.isEmpty()) {
                    continue;
                }
                result = refused.result();
            } catch (AssignmentIncompleteException incomplete) {
                result = incomplete.result();
                dropped.addAll(incomplete.unknownTargets());
            } catch (HawkbitUnavailableException down) {
                LOG.warnf("Assignment of set %d to %d device(s) waits for hawkBit: %s", e.getKey(), ids.size(), down.getMessage());
                continue; // intents stay; the next pass recovers them
            } catch (HawkbitRequestException notAllowed) {
                // not a refusal of this set (see HawkbitAnswer): Qawk's own access to hawkBit. No device is concerned.
                LOG.errorf("Assignment of set %d to %d device(s) waits: %s", e.getKey(), ids.size(), notAllowed.getMessage());
                continue;
            }
            faultRecordDelay();
            store.recordAssignment(e.getKey(), sent, result, dropped, runOfDevice, clock.instant());
        }
    }

    /** See {@link EngineConfig#faultRecordDelay()}: only crash tests set it. */
    private void faultRecordDelay() {
        long millis = config.faultRecordDelay().toMillis();
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

}
