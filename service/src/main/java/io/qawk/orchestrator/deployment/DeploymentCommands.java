package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.observation.EngineConfig;
import io.qawk.orchestrator.deployment.engine.EngineWake;
import io.qawk.orchestrator.deployment.model.Command;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.store.PhaseRefresh;
import io.qawk.orchestrator.deployment.store.RunRepository;
import io.qawk.orchestrator.deployment.store.TimelineWriter;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestRevision;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What people decide of a deployment once it exists: start, pause, resume, abort, and of one system roll back and take
 * again. Whether its phase (or the run's state) allows the command, and the words of a 409 when not, come from the
 * states ({@link DeploymentPhase#allows}, {@link RunState#allows}). Commands only record intent and re-derive the
 * phase; the engine does the work on its next pass, which each command brings forward to right after its commit
 * ({@link EngineWake}).
 */
@ApplicationScoped
public class DeploymentCommands {

    @Inject
    PhaseRefresh phases;

    @Inject
    TimelineWriter timeline;

    /** Runs and their devices, read and written. */
    @Inject
    RunRepository runs;

    @Inject
    Clock clock;

    @Inject
    EngineConfig config;

    @Inject
    DeploymentScope scope;

    /** Tells the engine, once the command committed, to pass now rather than at its next tick. */
    @Inject
    Event<EngineWake> wakes;

    /**
     * Starts a draft: the systems in scope are fixed as pending runs, in the order they will be taken. One made by hand
     * with nothing in scope is refused (409, saying why); a channel's may be empty, its systems join later.
     */
    @Transactional
    public SystemDeployment start(long id, String actor) {
        SystemDeployment d = lock(id);
        d.check(Command.START);
        if (d.manifestRevisionId == null) { // promotion pins the revision its channel ran before starting
            d.manifestRevisionId = ManifestRevision.freeze(Manifest.findById(d.manifestId), clock.instant()).id;
        }
        Manifest manifest = d.manifest();
        List<DeploymentScope.InScope> systems = scope.inScope(d, manifest);
        if (systems.isEmpty() && !d.followsChannel) {
            throw new ConflictException(scope.nothingInScope(d, manifest));
        }
        Instant now = clock.instant();
        List<RunRepository.Pending> pending = new ArrayList<>(systems.size());
        for (DeploymentScope.InScope s : systems) {
            pending.add(new RunRepository.Pending(s.system(), s.group(), pending.size()));
        }
        runs.createPending(d.id, manifest.systemTypeId, pending, now,
                new TimelineEvent.Created("in scope of deployment '" + d.name + "' (manifest '" + manifest.name + "')"
                        + (d.approvedBy == null ? "" : "; approved by " + d.approvedBy
                        + (d.approvalComment == null ? "" : ": " + d.approvalComment))),
                actor);
        d.startedAt = now;
        d.startedBy = actor;
        refreshPhase(d);
        wakes.fire(new EngineWake(d.id, "started"));
        return d;
    }

    @Transactional
    public SystemDeployment pause(long id, String actor) {
        SystemDeployment d = lock(id);
        d.check(Command.PAUSE);
        d.paused = true;
        d.pausedBy = actor;
        refreshPhase(d);
        recordOnUnderWay(d, new TimelineEvent.Paused(), actor);
        return d;
    }

    @Transactional
    public SystemDeployment resume(long id, String actor) {
        SystemDeployment d = lock(id);
        d.check(Command.RESUME);
        d.paused = false;
        d.pausedBy = null;
        refreshPhase(d);
        wakes.fire(new EngineWake(d.id, "resumed"));
        recordOnUnderWay(d, new TimelineEvent.Resumed(), actor);
        return d;
    }

    /**
     * Skips every system not yet started; those under way finish (and roll back if they fail). Of a FAILED deployment it
     * skips the systems its failures left pending and ends it ABORTED (no system of it can be taken again then); a
     * FAILED one with none pending has nothing to abort (409).
     */
    @Transactional
    public SystemDeployment abort(long id, String actor) {
        SystemDeployment d = lock(id);
        d.check(Command.ABORT);
        List<Long> pending = runs.summaries(d.id).stream().filter(r -> r.state().allows(Command.ABORT, r.cause()))
                .map(DeploymentPhase.RunSummary::id).toList();
        d.checkAbort(pending.size());
        d.aborted = true;
        d.abortedBy = actor;
        Instant now = clock.instant();
        for (SystemRun run : runs.lock(pending)) {
            if (!run.allows(Command.ABORT)) {
                continue; // the engine started it between the read and the lock: it finishes like any under way
            }
            run.moveTo(RunState.SKIPPED);
            run.reason = TimelineEvent.Skipped.REASON;
            run.endedAt = now;
            timeline.record(run.id, now, new TimelineEvent.Skipped(), actor);
        }
        runs.write();
        refreshPhase(d);
        wakes.fire(new EngineWake(d.id, "aborted"));
        return d;
    }

    /** Rolls a running or finished system back by hand: the engine sends it to its photographed sets. */
    @Transactional
    public SystemRun rollback(long deploymentId, long runId, String reason, String actor) {
        SystemDeployment d = lock(deploymentId);
        SystemRun run = lockRun(d, runId);
        d.check(Command.ROLL_BACK);
        if (!run.allows(Command.ROLL_BACK)) {
            throw new ConflictException(run.refusal(Command.ROLL_BACK));
        }
        if (!run.state.drives(run.rollbackCause)) { // it drives its system no more: another may have since
            otherDriver(run).ifPresent(why -> {
                throw new ConflictException("system '" + run.system + "' cannot be rolled back by this deployment: " + why);
            });
        }
        run.rollbackCause = RollbackCause.MANUAL;
        run.rollbackReason = reason == null || reason.isBlank() ? null : truncate(reason, 900);
        timeline.record(run.id, clock.instant(), new TimelineEvent.RollbackRequested(run.rollbackReason), actor);
        runs.write();
        refreshPhase(d);
        wakes.fire(new EngineWake(d.id, "rollback requested"));
        return run;
    }

    /**
     * Takes a rolled-back system again: pending, photographed afresh when it starts, with this deployment's manifest;
     * it no longer counts as failed. The channel's release (if any) stays as it is: resuming it is another decision.
     */
    @Transactional
    public SystemRun retry(long deploymentId, long runId, String reason, String actor) {
        SystemDeployment d = lock(deploymentId);
        SystemRun run = lockRun(d, runId);
        d.check(Command.TAKE_AGAIN);
        if (!run.allows(Command.TAKE_AGAIN)) {
            throw run.state.goingBack(run.rollbackCause) ? stillRollingBack(run)
                    : new ConflictException(run.refusal(Command.TAKE_AGAIN));
        }
        runs.forgetDevices(run.id);
        run.moveTo(RunState.PENDING);
        run.attempt++;
        run.currentOrder = null;
        run.failedOrder = null;
        run.rollbackCause = null;
        run.rollbackReason = null;
        run.startedAt = null;
        run.endedAt = null;
        run.soakStartedAt = null;
        run.soakEndsAt = null;
        String previous = run.reason;
        run.reason = null;
        timeline.record(run.id, clock.instant(), TimelineEvent.TakenAgain.byPerson(run.attempt,
                reason == null || reason.isBlank() ? null : truncate(reason, 900), previous), actor);
        runs.write();
        refreshPhase(d);
        wakes.fire(new EngineWake(d.id, "taken again"));
        return run;
    }

    /**
     * Take again asked of a system still going back: refused (409 with {@code Retry-After}, the engine's idle interval),
     * saying how far the way back is and what to wait for. Not queued: a rollback may end ROLLBACK_FAILED, and then a
     * person should read why before the system is given another go.
     */
    private ConflictException stillRollingBack(SystemRun run) {
        List<RunDevice> devices = runs.devices(run.id);
        long back = devices.stream().filter(x -> x.state == DeviceState.ROLLED_BACK).count();
        long going = run.state == RunState.ROLLING_BACK
                ? devices.stream().filter(x -> x.state == DeviceState.ROLLBACK_WAITING
                || x.state == DeviceState.ROLLBACK_ASSIGNING || x.state == DeviceState.ROLLBACK_ASSIGNED).count()
                : devices.stream().filter(x -> x.fromSetId != null && (x.state == DeviceState.SUCCEEDED
                || x.state == DeviceState.FAILED || x.state == DeviceState.VERIFYING || x.state == DeviceState.ASSIGNED
                || x.state == DeviceState.ASSIGNING)).count();
        long seconds = Math.max(1, config.interval().toSeconds());
        return new ConflictException(RunState.stillRollingBack(run.system, back, going), (int) seconds);
    }

    /**
     * Another deployment's run of this system (or of one sharing a device with it) under way, or started after this
     * one ended: going back to this run's photograph would undo it.
     */
    private Optional<String> otherDriver(SystemRun run) {
        return runs.otherDriver(run).map(o -> "deployment \"" + o.deploymentName() + "\" (#" + o.deploymentId() + ") "
                + (o.state().underWay() ? "is driving it now" : "has updated it since"));
    }

    private static SystemDeployment lock(long id) {
        return SystemDeployment.lock(id);
    }

    private SystemRun lockRun(SystemDeployment d, long runId) {
        SystemRun run = runs.lock(runId).orElse(null);
        if (run == null || run.deploymentId != d.id) {
            throw new NotFoundException("run", runId + " of system deployment " + d.id);
        }
        return run;
    }

    /** Re-derives the phase from the flags and runs; sets the end time when it ends. Call inside a transaction. */
    void refreshPhase(SystemDeployment d) {
        phases.refresh(d, runs.summaries(d.id), clock.instant());
    }

    private void recordOnUnderWay(SystemDeployment d, TimelineEvent event, String actor) {
        Instant now = clock.instant();
        for (SystemRun run : runs.underWay(d.id)) {
            timeline.record(run.id, now, event, actor);
        }
    }

    private static String truncate(String s, int max) {
        return s.length() > max ? s.substring(0, max) + "…" : s;
    }
}
