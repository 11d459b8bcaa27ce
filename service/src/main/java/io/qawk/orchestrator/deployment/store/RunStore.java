package io.qawk.orchestrator.deployment.store;

import io.qawk.orchestrator.analysis.MetricGate;
import io.qawk.orchestrator.common.SqlEnums;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.observation.InFlight;
import io.qawk.orchestrator.observation.Outcome;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.plan.PlanInput;
import io.qawk.orchestrator.deployment.plan.RunPlanner;
import io.qawk.orchestrator.deployment.plan.RunScheduler;
import io.qawk.orchestrator.hawkbit.AssignmentResult;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The engine's reads and writes, each its own transaction (or, for planning, the engine's): one run per transaction,
 * locked while it changes. It decides nothing: what the planner and the scheduler decided is stored as it is, through
 * the writers.
 *
 * <p>One class: the pass's reads and writes beside the locks they take, so their order can be checked in one place.
 */
@ApplicationScoped
public class RunStore {

    @Inject
    PhaseRefresh phases;

    @Inject
    TimelineWriter timeline;

    @Inject
    Clock clock;

    @Inject
    RunDeviceWriter deviceWriter;

    @Inject
    SystemRunWriter runWriter;

    @Inject
    RunRepository repository;

    @Transactional
    public List<Long> activeDeploymentIds() {
        return SystemDeployment.<SystemDeployment>list("phase in ?1 order by id",
                List.of(DeploymentPhase.RUNNING, DeploymentPhase.ABORTING, DeploymentPhase.PAUSED))
                .stream().map(d -> d.id).toList();
    }

    @Transactional
    public DeploymentSnapshot load(long deploymentId) {
        return read(deploymentId);
    }

    private DeploymentSnapshot read(long deploymentId) {
        SystemDeployment d = SystemDeployment.findById(deploymentId);
        if (d == null || !d.phase.active()) {
            return null;
        }
        List<SystemRun> candidates = runWriter.toPlan(deploymentId); // plain objects: thousands, read only here
        if (d.phase == DeploymentPhase.PAUSED) {
            candidates = candidates.stream().filter(r -> r.rollbackCause == RollbackCause.MANUAL).toList();
        }
        List<Long> runIds = candidates.stream().map(r -> r.id).toList();
        // read as plain objects: a pass with thousands of systems under way reads tens of thousands of devices
        Map<Long, List<RunDevice>> devices = deviceWriter.read(runIds);
        List<DeploymentSnapshot.PlannableRun> runs = new ArrayList<>();
        List<InFlight> inFlight = new ArrayList<>();
        boolean anyIntent = false;
        for (SystemRun r : candidates) {
            List<RunDevice> own = devices.getOrDefault(r.id, List.of());
            List<PlanInput.Device> planned = new ArrayList<>(own.size());
            Map<String, String> componentOf = new HashMap<>();
            for (RunDevice dev : own) {
                planned.add(PlanInput.Device.of(dev));
                componentOf.put(dev.controllerId, dev.componentType);
                if (dev.state == DeviceState.ASSIGNED || dev.state == DeviceState.ROLLBACK_ASSIGNED) {
                    inFlight.add(new InFlight(dev.controllerId, dev.setInFlight(), dev.actionId));
                } else if (dev.state == DeviceState.ASSIGNING || dev.state == DeviceState.ROLLBACK_ASSIGNING) {
                    anyIntent = true;
                }
            }
            runs.add(new DeploymentSnapshot.PlannableRun(r.id, r.state, planned, r.systemTypeId, r.system, r.group, r.soakStartedAt, r.soakEndsAt,
                    componentOf));
        }
        List<RunDevice> intents = !anyIntent ? List.of() : RunDevice.list("runId in ?1 and state in ?2", runIds,
                List.of(DeviceState.ASSIGNING, DeviceState.ROLLBACK_ASSIGNING));
        return new DeploymentSnapshot(deploymentId, d.phase, new PlanInput.Settings(d.orderTimeout(), d.verifyTimeout(), d.soak()),
                runs, inFlight, intents, leftTheirSystem(deploymentId), d.metricGate());
    }

    /**
     * Devices of this deployment's runs going forward that no longer fill their component of their system in the
     * inventory (another system key, another component, gone): the planner fails those runs safe.
     */
    @SuppressWarnings("unchecked")
    private static Set<String> leftTheirSystem(long deploymentId) {
        List<String> ids = RunDevice.getEntityManager().createNativeQuery("select rd.controller_id from run_device rd"
                        + " join system_run r on r.id = rd.run_id where r.deployment_id = :d"
                        + " and r.state in " + SqlEnums.list(RunState.RUNNING, RunState.VERIFYING)
                        + " and not exists (select 1 from system_member m where m.controller_id = rd.controller_id"
                        + " and m.system_type_id = r.system_type_id and m.system_name = r.system_name"
                        + " and m.component_type = rd.component_type and m.problem is null)")
                .setParameter("d", deploymentId).getResultList();
        return Set.copyOf(ids);
    }

    /** A run locked for this transaction with its devices, as the planner is to see it. */
    public record ToPlan(SystemRun run, List<RunDevice> devices) {

        /** The run as the planner sees it. */
        public PlanInput.Run planned() {
            return PlanInput.Run.of(run, devices);
        }

        /**
         * hawkBit's refusal as the planner sees it: those of {@code refused} that are this run's ({@code runOfDevice}),
         * each with the name of the set it was sent ({@code setLabel}, hawkBit's name for it, when the run has none).
         */
        public RunPlanner.Refusal refusal(Collection<String> refused, Map<String, Long> runOfDevice, String setLabel,
                                          String statusAndReason) {
            Map<String, String> sets = new LinkedHashMap<>();
            for (RunDevice d : devices) {
                if (refused.contains(d.controllerId) && Objects.equals(runOfDevice.get(d.controllerId), run.id)) {
                    sets.put(d.controllerId, Objects.requireNonNullElse(d.setInFlightName(), setLabel));
                }
            }
            return new RunPlanner.Refusal(sets, statusAndReason);
        }
    }

    /**
     * These runs locked together, their devices read in one query, those the planner may decide for (under way, or
     * to go back by hand). The caller plans and {@link #save saves} them in the same transaction: the engine hands
     * over a few hundred runs at a time, since one transaction per run made a pass with thousands of systems under
     * way cost thousands of commits.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<ToPlan> lockToPlan(List<Long> runIds) {
        List<ToPlan> out = new ArrayList<>();
        List<SystemRun> runs = runWriter.lock(runIds);
        Map<Long, List<RunDevice>> read = deviceWriter.read(runIds); // under the runs' locks; save names the changed
        for (SystemRun run : runs) {
            if (run.state.drives(run.rollbackCause)) {
                out.add(new ToPlan(run, read.getOrDefault(run.id, List.of())));
            }
        }
        return out;
    }

    /** A deployment locked to start systems, its phase re-derived from its runs. */
    public record ToStart(SystemDeployment deployment, List<DeploymentPhase.RunSummary> runs) {
    }

    /** The deployment locked for the caller's transaction, in which the scheduler picks the systems to start. */
    @Transactional(Transactional.TxType.MANDATORY)
    public ToStart lockToStart(long deploymentId) {
        SystemDeployment d = SystemDeployment.lock(deploymentId);
        List<DeploymentPhase.RunSummary> runs = repository.summaries(deploymentId);
        phases.refresh(d, runs, clock.instant());
        return new ToStart(d, runs);
    }

    /**
     * Stores what the scheduler decided of the runs the start gate held back ({@code holds}: only those that change
     * something, {@link RunScheduler#holds}): each is locked and changed, its new words on its timeline. Returns the deployment's runs as they are now, its phase re-derived
     * when one was given up.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<DeploymentPhase.RunSummary> storeHolds(ToStart s, List<RunScheduler.Hold> holds) {
        Map<Long, RunScheduler.Hold> byRun = new HashMap<>();
        for (RunScheduler.Hold h : holds) {
            byRun.put(h.runId(), h);
        }
        Instant now = clock.instant();
        boolean gaveUp = false;
        for (SystemRun run : runWriter.lock(byRun.keySet().stream().sorted().toList())) {
            RunScheduler.Hold h = byRun.get(run.id);
            if (h.giveUp()) {
                run.moveTo(RunState.GIVEN_UP);
                run.endedAt = now;
                gaveUp = true;
            }
            if (h.newWords(run.reason)) {
                run.reason = h.reason();
                timeline.record(run.id, now, h.event(), null);
            }
        }
        runWriter.writeNow();
        if (!gaveUp) {
            return s.runs();
        }
        List<DeploymentPhase.RunSummary> runs = repository.summaries(s.deployment().id);
        phases.refresh(s.deployment(), runs, now);
        return runs;
    }

    /**
     * Stores what the scheduler decided of a channel deployment's runs as its scope was asked again (decided on runs
     * read unlocked: each is applied to the locked run only while it still applies,
     * {@link RunScheduler.Follow#appliesTo}), in the caller's transaction, written before it goes on.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void storeFollow(Map<Long, RunScheduler.Follow> decided) {
        Instant now = clock.instant();
        List<Long> changing = decided.entrySet().stream().filter(e -> e.getValue() != RunScheduler.Follow.KEEP)
                .map(Map.Entry::getKey).sorted().toList();
        for (SystemRun run : runWriter.lock(changing)) {
            RunScheduler.Follow f = decided.get(run.id);
            if (!f.appliesTo(run.state)) {
                continue; // it moved since it was read
            }
            if (f == RunScheduler.Follow.TAKE_AGAIN) {
                // given up because it left (its centre moved out, its devices vanished) and now back: take it again
                run.moveTo(RunState.PENDING);
                run.endedAt = null;
                run.reason = null;
                timeline.record(run.id, now, TimelineEvent.TakenAgain.cameBackIntoScope(), null);
            } else {
                run.moveTo(RunState.GIVEN_UP);
                run.endedAt = now;
                run.reason = RunScheduler.Follow.LEFT;
                timeline.record(run.id, now, new TimelineEvent.GivenUp(run.reason), null);
            }
        }
        runWriter.writeNow();
    }

    /**
     * Stores the photographs of these systems (before anything is sent) and starts their runs, in the caller's
     * transaction; returns the runs started, for the planner to decide their first orders in the same transaction.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<ToPlan> storePhotographs(Map<Long, List<RunDevice>> photos) {
        List<ToPlan> out = new ArrayList<>();
        List<SystemRun> runs = runWriter.lock(List.copyOf(photos.keySet()));
        for (SystemRun run : runs) {
            if (run.state == RunState.PENDING) {
                deviceWriter.inserted(photos.get(run.id)); // written at the commit, with the first orders save decides
            }
        }
        for (SystemRun run : runs) {
            if (start(run, photos.get(run.id))) {
                out.add(new ToPlan(run, photos.get(run.id)));
            }
        }
        return out;
    }

    /** Applies {@link RunScheduler#start}'s decision; true when the run started. */
    private boolean start(SystemRun run, List<RunDevice> photo) {
        RunScheduler.Start decided = RunScheduler.start(run.state, photo.size());
        if (decided == RunScheduler.Start.NOT_PENDING) {
            return false;
        }
        Instant now = clock.instant();
        if (decided == RunScheduler.Start.GIVE_UP) {
            run.moveTo(RunState.GIVEN_UP);
            run.endedAt = now;
            run.reason = RunScheduler.Start.GIVEN_UP;
            timeline.record(run.id, now, new TimelineEvent.GivenUp(run.reason), null);
            return false;
        }
        run.moveTo(RunState.RUNNING);
        run.startedAt = now;
        run.reason = null; // a reason it waited for is history now (the timeline keeps it)
        timeline.record(run.id, now, new TimelineEvent.Snapshot(photo.stream()
                .map(d -> new TimelineEvent.Photo(d.controllerId, d.componentType, d.order, d.fromSet, d.toSet))
                .toList()), null);
        for (RunDevice d : photo) {
            if (d.rebuiltFromAction != null) {
                timeline.record(run.id, now, new TimelineEvent.PhotographRebuilt(d.controllerId, d.rebuiltFromAction,
                        d.toSet, d.fromSet), null);
            }
        }
        return true;
    }

    /**
     * Stores what the planner decided for a locked run ({@code now}: the time it planned with; its devices are
     * written when the transaction commits); returns the assignments to send.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<RunPlanner.Assign> save(ToPlan planned, RunPlanner.Decision decision, Instant now) {
        return save(planned, decision, now, Map.of());
    }

    /**
     * The same, with when hawkBit says devices finished ({@code reported}: their targets' {@code installedAt}); a
     * device that finishes its forward update keeps that time, or {@code now} when hawkBit named none, as where the gap
     * to the next order starts.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<RunPlanner.Assign> save(ToPlan planned, RunPlanner.Decision decision, Instant now,
                                        Map<String, Instant> reported) {
        SystemRun run = planned.run();
        List<RunDevice> devices = planned.devices();
        Map<String, RunDevice> byId = devices.stream().collect(Collectors.toMap(d -> d.controllerId, d -> d));
        decision.deviceChanges().forEach((id, change) -> {
            RunDevice d = byId.get(id);
            deviceWriter.changed(d);
            change.steps().forEach(d::moveTo);
            d.failed = change.failed();
            if (change.detail() != null) {
                d.detail = change.detail();
            }
            if (change.failure() != null) {
                d.failure = change.failure();
            }
            d.reached(change.state(), now, reported.getOrDefault(id, now));
        });
        run.moveThrough(decision.steps());
        decision.settle(run, now);
        for (TimelineEvent event : decision.events()) {
            timeline.record(run.id, now, event, null);
        }
        return decision.assignments();
    }

    /**
     * hawkBit answered an assignment: the intents become assignments with their actions, in one statement (thousands
     * of devices per pass; see {@link RunDeviceWriter#markAssigned}).
     */
    @Transactional
    public Assigned recordAssignment(long setId, List<RunPlanner.Assign> assigns, AssignmentResult result, Set<String> dropped,
                                 Map<String, Long> runOfDevice, Instant at) {
        Map<String, RunDeviceWriter.Taken> taken = new LinkedHashMap<>();
        for (RunPlanner.Assign a : assigns) {
            Long runId = runOfDevice.get(a.controllerId());
            if (runId != null) {
                taken.putIfAbsent(a.controllerId(), new RunDeviceWriter.Taken(runId, a.controllerId(),
                        result.actionByTarget().get(a.controllerId()), dropped.contains(a.controllerId())));
            }
        }
        Map<String, RunDeviceWriter.Marked> marked = new HashMap<>();
        int forward = 0;
        int back = 0;
        for (RunDeviceWriter.Marked m : deviceWriter.markAssigned(List.copyOf(taken.values()), at)) {
            marked.put(m.controllerId(), m);
            if (m.was() != m.now() && taken.get(m.controllerId()).actionId() != null) {
                if (m.now() == DeviceState.ROLLBACK_ASSIGNED) {
                    back++;
                } else {
                    forward++;
                }
            }
        }
        Map<Long, List<TimelineEvent.Assignment>> perRun = new LinkedHashMap<>();
        for (RunDeviceWriter.Taken t : taken.values()) { // in the order they were sent
            if (marked.containsKey(t.controllerId())) {
                perRun.computeIfAbsent(t.runId(), k -> new ArrayList<>())
                        .add(new TimelineEvent.Assignment(t.controllerId(), t.actionId()));
            }
        }
        perRun.forEach((runId, devices) -> timeline.record(runId, at, new TimelineEvent.Assigned(setId, devices), null));
        List<Gap> gaps = gaps(assigns, marked, runOfDevice, at);
        return new Assigned(forward, back, gaps);
    }

    /**
     * The gaps of the runs whose devices hawkBit has just taken going forward, at an order after their first: from the
     * last device of the order before finishing in hawkBit to {@code at}, each on its run's timeline. Measured only here,
     * where hawkBit's answer is: an assignment found after an interruption ({@link #confirmAssigned}) has no known
     * acceptance time and is left out.
     */
    private List<Gap> gaps(List<RunPlanner.Assign> assigns, Map<String, RunDeviceWriter.Marked> marked,
                           Map<String, Long> runOfDevice, Instant at) {
        Map<Long, Integer> orderOfRun = new LinkedHashMap<>();
        for (RunPlanner.Assign a : assigns) {
            RunDeviceWriter.Marked m = marked.get(a.controllerId());
            Long runId = runOfDevice.get(a.controllerId());
            if (!a.rollback() && runId != null && m != null && m.was() == DeviceState.ASSIGNING
                    && m.now() == DeviceState.ASSIGNED) {
                orderOfRun.merge(runId, a.order(), Math::min);
            }
        }
        List<Gap> out = new ArrayList<>();
        for (RunDeviceWriter.LastFinished f : deviceWriter.finishedBefore(orderOfRun)) {
            Duration gap = Duration.between(f.reportedAt(), at);
            timeline.record(f.runId(), at, new TimelineEvent.OrderGap(f.order(), f.finishedOrder(), f.controllerId(),
                    f.reportedAt(), gap), null);
            out.add(new Gap(f.systemType(), gap));
        }
        return out;
    }

    /**
     * How many devices hawkBit took an assignment for, going forward and going back, and the gaps between orders this
     * measured.
     */
    public record Assigned(int forward, int back, List<Gap> gaps) {
        public Assigned(int forward, int back) {
            this(forward, back, List.of());
        }
    }

    /** A system of {@code systemType} got its next order {@code gap} after the order before finished in hawkBit. */
    public record Gap(String systemType, Duration gap) {
    }

    /**
     * An unconfirmed intent as recovery found it in hawkBit: {@code adopted}, hawkBit took the assignment (its action
     * {@code actionId}, created {@code at}; no action, {@code detail} saying why, when its target was deleted); else
     * hawkBit has none and the device goes back to waiting, to be sent again.
     */
    public record Settlement(long runId, String controllerId, boolean adopted, Long actionId, Instant at,
                             String detail) {

        public static Settlement adopted(long runId, String controllerId, Long actionId, Instant at, String detail) {
            return new Settlement(runId, controllerId, true, actionId, at, detail);
        }

        public static Settlement sendAgain(long runId, String controllerId) {
            return new Settlement(runId, controllerId, false, null, null, null);
        }
    }

    /** The deployment read again after its intents were settled, and how many devices were confirmed assigned. */
    public record Settled(DeploymentSnapshot snapshot, Assigned confirmed) {
    }

    /**
     * The pass's unconfirmed intents settled as recovery found them in hawkBit, each in its own transaction with its
     * run locked (a device that moved on meanwhile is left as it is), then the deployment read again.
     */
    public Settled settle(long deploymentId, List<Settlement> settlements) {
        int forward = 0;
        int back = 0;
        for (Settlement s : settlements) {
            if (s.adopted()) {
                Assigned a = QuarkusTransaction.requiringNew().call(() -> confirmAssigned(s));
                forward += a.forward();
                back += a.back();
            } else {
                QuarkusTransaction.requiringNew().run(() -> revertIntent(s.runId(), s.controllerId()));
            }
        }
        return new Settled(QuarkusTransaction.requiringNew().call(() -> read(deploymentId)), new Assigned(forward, back));
    }

    /** An intent hawkBit took, found after the fact: the device is assigned with hawkBit's action (none: its target gone). */
    private Assigned confirmAssigned(Settlement s) {
        RunDevice d = lockedDevice(s.runId(), s.controllerId());
        if (d != null && (d.state == DeviceState.ASSIGNING || d.state == DeviceState.ROLLBACK_ASSIGNING)) {
            deviceWriter.changed(d);
            markAssigned(d, s.actionId(), s.at());
            Assigned confirmed = s.actionId() == null ? new Assigned(0, 0)
                    : d.state == DeviceState.ROLLBACK_ASSIGNED ? new Assigned(0, 1) : new Assigned(1, 0);
            if (s.detail() != null) {
                d.detail = s.detail();
            }
            timeline.record(s.runId(), clock.instant(), new TimelineEvent.Recovered(s.controllerId(), s.actionId()), null);
            return confirmed;
        }
        return new Assigned(0, 0);
    }

    private void revertIntent(long runId, String controllerId) {
        RunDevice d = lockedDevice(runId, controllerId);
        if (d != null && d.state == DeviceState.ASSIGNING) {
            deviceWriter.changed(d);
            d.moveTo(DeviceState.WAITING);
        } else if (d != null && d.state == DeviceState.ROLLBACK_ASSIGNING) {
            deviceWriter.changed(d);
            d.moveTo(DeviceState.ROLLBACK_WAITING);
        }
    }

    /** A device of a run, its run locked for this transaction; null when there is none. */
    private RunDevice lockedDevice(long runId, String controllerId) {
        runWriter.lock(List.of(runId));
        return deviceWriter.read(List.of(runId)).getOrDefault(runId, List.of()).stream()
                .filter(d -> d.controllerId.equals(controllerId)).findFirst().orElse(null);
    }

    /** An intent hawkBit took (or an assignment it took again: the state stays, the action is hawkBit's latest). */
    private static void markAssigned(RunDevice d, Long actionId, Instant at) {
        DeviceState assigned = d.state.rollingBack() ? DeviceState.ROLLBACK_ASSIGNED : DeviceState.ASSIGNED;
        if (d.state != assigned) {
            d.moveTo(assigned);
        }
        d.actionId = actionId;
        d.assignedAt = at;
    }

    @Transactional
    public void refreshPhase(long deploymentId) {
        SystemDeployment d = SystemDeployment.lock(deploymentId);
        phases.refresh(d, repository.summaries(deploymentId), clock.instant());
    }
}
