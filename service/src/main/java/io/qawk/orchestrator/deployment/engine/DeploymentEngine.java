package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.observation.EngineConfig;
import io.qawk.orchestrator.common.DatabaseUnreachable;
import io.qawk.orchestrator.common.EngineLock;
import io.qawk.orchestrator.common.Lists;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.observation.Outcome;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.plan.Health;
import io.qawk.orchestrator.deployment.plan.PlanInput;
import io.qawk.orchestrator.deployment.plan.RunPlanner;
import io.qawk.orchestrator.deployment.plan.RunScheduler;
import io.qawk.orchestrator.deployment.plan.StartRules;
import io.qawk.orchestrator.deployment.store.DeploymentSnapshot;
import io.qawk.orchestrator.deployment.store.RunStore;
import io.qawk.orchestrator.hawkbit.HawkbitUnavailableException;
import io.qawk.orchestrator.inventory.HawkbitNotConfigured;
import io.qawk.orchestrator.window.CentreWindows;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The thin loop around {@link RunPlanner}. A pass of one deployment, under its Postgres lock, is an ordered list of
 * steps, each of which completes or leaves the rest to the next pass: load what to follow ({@link RunStore}); at the
 * first pass after a start or after the records went backwards, check them against hawkBit's actions
 * ({@link LedgerCheck}: a run they contradict is held, nothing moves on it); observe
 * ({@link PassObserver}: every question to hawkBit, unconfirmed intents recovered, time nobody could observe accounted
 * for); plan each run with news ({@link RunPlanner}, pure) and store its decision; photograph the systems the
 * scheduler starts and store their photographs; send the stored intents and record hawkBit's answers
 * ({@link AssignmentSender}). Every step can be repeated after a crash. When passes come is
 * {@link PassLoop}'s; this class starts it, wakes it after commands and tells it whether devices are due.
 * <p>One class: the steps of a pass, read top to bottom in the order they run; each is a short method or a bean.
 */
@ApplicationScoped
public class DeploymentEngine {

    private static final Logger LOG = Logger.getLogger(DeploymentEngine.class);

    @Inject
    PassObserver observer;

    @Inject
    Photographer photographer;

    @Inject
    RunStore store;

    @Inject
    StartGate gate;

    @Inject
    UnobservedTime unobserved;

    @Inject
    AssignmentSender sender;

    @Inject
    LedgerCheck ledger;

    @Inject
    EngineLock locks;

    @Inject
    Clock clock;

    @Inject
    EngineConfig config;

    @Inject
    EngineMetrics metrics;

    @Inject
    HawkbitNotConfigured notConfigured;

    /** The loop thread's request context: passes run there, outside any request. */
    @Inject
    RequestContextController requests;

    private final ReentrantLock passLock = new ReentrantLock();

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
     * Whether the engine still passes, in operators' words: empty while it does; why not otherwise (its loop ended,
     * or a pass has been under way for longer than {@code qawk.engine.stuck-after}).
     */
    public Optional<String> stuck() {
        PassLoop l = loop;
        if (l == null) {
            return Optional.empty(); // not started yet
        }
        if (!l.running()) {
            return Optional.of("the deployment engine's loop has ended");
        }
        return l.passUnderWayFor().filter(d -> d.compareTo(config.stuckAfter()) > 0)
                .map(d -> "an engine pass has been under way for " + d.toSeconds() + " s");
    }

    /** How long ago the engine's last pass ended, empty before the first. */
    public Optional<Duration> lastPassEndedAgo() {
        PassLoop l = loop;
        return l == null ? Optional.empty() : l.lastPassEndedAgo();
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
            requests.deactivate();
        }
    }

    /** One pass over every deployment that has something to follow; returns how many were driven. */
    public int passAll() {
        passLock.lock();
        long passStarted = metrics.passStarted();
        due = false;
        Instant databaseAway = unobserved.databaseAwaySince();
        boolean databaseFailed = false;
        try {
            int driven = 0;
            List<Long> active;
            try {
                active = store.activeDeploymentIds();
                ledger.recordsWentBackwards();
            } catch (RuntimeException e) {
                if (DatabaseUnreachable.in(e)) {
                    unobserved.databaseUnreachable();
                    LOG.warnf("Engine pass skipped: Qawk's database is unreachable (%s)", e.getMessage());
                    return 0;
                }
                throw e;
            }
            unobserved.keepOnly(active);
            for (long id : active) {
                try {
                    if (pass(id)) {
                        driven++;
                    }
                } catch (HawkbitUnavailableException e) {
                    metrics.hawkbitUnavailable();
                    LOG.warnf("Deployment %d waits: hawkBit is unavailable (%s)", id, e.getMessage());
                } catch (RuntimeException e) {
                    if (DatabaseUnreachable.in(e)) {
                        databaseFailed = true;
                        unobserved.databaseUnreachable();
                        LOG.warnf("Deployment %d waits: Qawk's database is unreachable (%s)", id, e.getMessage());
                        continue;
                    }
                    metrics.engineError();
                    LOG.errorf(e, "Pass of deployment %d failed; it is tried again next pass", id);
                }
            }
            if (databaseAway != null && !databaseFailed) {
                unobserved.databaseBack(databaseAway);
            }
            metrics.passEnded(passStarted);
            return driven;
        } finally {
            passLock.unlock();
        }
    }

    /** One pass of one deployment, step by step; false when another replica holds it. */
    boolean pass(long deploymentId) {
        Optional<EngineLock.Held> lock = locks.tryLock((int) deploymentId);
        if (lock.isEmpty()) {
            return false;
        }
        try (EngineLock.Held held = lock.get()) {
            DeploymentSnapshot snap = store.load(deploymentId);
            if (snap != null && ledger.checkIfDue(deploymentId)) {
                snap = store.load(deploymentId); // its diverged runs are no longer planned
            }
            if (snap == null) {
                unobserved.forget(deploymentId);
                return true;
            }
            PassObserver.Observation seen = observer.gather(snap);
            snap = seen.snapshot();
            // both steps' assignments, merged once: the runs planned with news, then the systems started now
            Outbox outbox = Outbox.of(planAndSave(seen), photographAndStart(snap));
            Instant sending = clock.instant();
            sender.send(outbox);
            Duration sent = Duration.between(sending, clock.instant());
            unobserved.passEnded(deploymentId, seen.waited().compareTo(sent) > 0 ? seen.waited() : sent);
            store.refreshPhase(deploymentId);
            // devices sent to, waiting for hawkBit's answer or for their verification: the next pass comes soon
            due |= snap.phase() != DeploymentPhase.PAUSED && (!snap.inFlight().isEmpty() || !outbox.isEmpty()
                    || !seen.observed().verified().isEmpty() || !seen.snapshot().intents().isEmpty());
            return true;
        }
    }

    /**
     * The step "plan and save": every run with news is planned by {@link RunPlanner} and its decision stored, a few
     * hundred runs per transaction, intent first (devices to be sent are stored as assigning). Runs that only wait
     * for devices still at it, with no news, are skipped.
     */
    private List<Map<Long, List<RunPlanner.Assign>>> planAndSave(PassObserver.Observation seen) {
        DeploymentSnapshot snap = seen.snapshot();
        Map<String, Outcome> outcomes = seen.observed().outcomes();
        // a device can only time out on an answer to a question asked after its deadline
        Instant now = seen.at();
        List<Long> toPlan = new ArrayList<>();
        for (DeploymentSnapshot.PlannableRun run : snap.runsToPlan()) {
            // nothing for the planner to decide: only waiting for hawkBit, with no news (and no manual rollback)
            boolean onlyWaiting = run.state().underWay()
                    && RunPlanner.onlyWaiting(run.devices(), outcomes, now, snap.settings().orderTimeout());
            if (!onlyWaiting) {
                toPlan.add(run.id());
            }
        }
        List<Map<Long, List<RunPlanner.Assign>>> decided = new ArrayList<>();
        for (List<Long> batch : Lists.chunks(toPlan, config.runsPerTransaction())) {
            decided.add(planAndSave(() -> store.lockToPlan(batch), now, seen.observed(), snap.settings(),
                    seen.verdicts(), seen.reported()));
        }
        return decided;
    }

    /**
     * The step "photograph and start": the systems the scheduler starts now are photographed (what they run,
     * confirmed with hawkBit), and each photograph stored before anything is sent, with the first orders planned in
     * the same transaction.
     */
    private List<Map<Long, List<RunPlanner.Assign>>> photographAndStart(DeploymentSnapshot snap) {
        long deploymentId = snap.deploymentId();
        Map<Long, List<RunDevice>> photos = photographer.photograph(runsToStart(deploymentId));
        List<Map<Long, List<RunPlanner.Assign>>> decided = new ArrayList<>();
        for (List<Long> batch : Lists.chunks(List.copyOf(photos.keySet()), config.runsPerTransaction())) {
            Map<Long, List<RunDevice>> some = new LinkedHashMap<>();
            batch.forEach(id -> some.put(id, photos.get(id)));
            try {
                decided.add(planAndSave(() -> store.storePhotographs(some), clock.instant(),
                        PlanInput.Observed.NOTHING, snap.settings(), Map.of(), Map.of()));
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
        return decided;
    }

    /**
     * In one transaction: the runs {@code load} locks are each planned by {@link RunPlanner} as of {@code now} and its
     * decision stored (intent first: devices to be sent are stored as assigning; devices that finished with when
     * hawkBit says they did, {@code reported}); returns the assignments to send after the commit, by run.
     */
    private Map<Long, List<RunPlanner.Assign>> planAndSave(Supplier<List<RunStore.ToPlan>> load, Instant now, PlanInput.Observed observed,
                               PlanInput.Settings settings, Map<Long, Health> verdicts, Map<String, Instant> reported) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Map<Long, List<RunPlanner.Assign>> out = new LinkedHashMap<>();
            for (RunStore.ToPlan planned : load.get()) {
                SystemRun run = planned.run();
                RunState before = run.state;
                Health verdict = verdicts.get(run.id);
                RunPlanner.Decision decision = RunPlanner.plan(new PlanInput(planned.planned(),
                        verdict == null ? observed : observed.withHealth(verdict), settings, now));
                out.put(run.id, store.save(planned, decision, now, reported));
                metrics.runChanged(before, run.state, run.rollbackCause, run.startedAt, run.endedAt, decision.ended());
            }
            return out;
        });
    }

    /**
     * Which pending systems start now, in one transaction with the deployment locked: {@link RunScheduler} picks the
     * candidates (not those whose centre's maintenance window is closed now) and the free slots, the
     * {@link StartGate} says which may not start and why, the scheduler decides what becomes of those (they wait, or
     * are given up) and picks among those left.
     */
    private List<Long> runsToStart(long deploymentId) {
        return QuarkusTransaction.requiringNew().call(() -> {
            RunStore.ToStart s = store.lockToStart(deploymentId);
            SystemDeployment d = s.deployment();
            boolean halted = gate.halted(d);
            CentreWindows windows = CentreWindows.of(d.windows, clock.instant());
            List<DeploymentPhase.RunSummary> candidates = RunScheduler.candidates(d.phase, d.maxFailed, d.byCentre,
                    halted, s.runs(), windows::closed);
            int slots = RunScheduler.slots(d.maxParallel, s.runs());
            if (candidates.isEmpty() || slots == 0) {
                return List.<Long>of();
            }
            Map<SystemRun, StartRules.Verdict> held = gate.holdBack(d, candidates, slots);
            Map<Long, String> reasons = new HashMap<>();
            Map<Long, StartRules.Verdict> verdicts = new LinkedHashMap<>();
            held.forEach((run, verdict) -> {
                reasons.put(run.id, run.reason);
                verdicts.put(run.id, verdict);
            });
            List<DeploymentPhase.RunSummary> runs = store.storeHolds(s, RunScheduler.holds(verdicts, reasons));
            return RunScheduler.toStart(d.phase, d.maxParallel, d.maxFailed, d.byCentre, halted, runs,
                    reasons.keySet(), windows::closed).stream().map(DeploymentPhase.RunSummary::id).toList();
        });
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
}
