package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.analysis.MetricGates;
import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.common.InvalidRequestException;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.common.RefusedException;
import io.qawk.orchestrator.observation.EngineConfig;
import io.qawk.orchestrator.deployment.engine.EngineWake;
import io.qawk.orchestrator.deployment.model.DeploymentEvent;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.store.RunRepository;
import io.qawk.orchestrator.deployment.store.TimelineWriter;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestRevision;
import io.qawk.orchestrator.manifest.ManifestUsage;
import io.qawk.orchestrator.systemtype.SystemType;
import io.qawk.orchestrator.window.Windows;
import io.qawk.orchestrator.window.WindowsValidation;
import io.quarkus.panache.common.Parameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Creates deployments and records what people decide (start, pause, resume, abort, roll back, take again).
 * Commands only record intent and re-derive the phase; the engine does the work on its next pass, which each command
 * brings forward to right after its commit ({@link io.qawk.orchestrator.deployment.engine.EngineWake}).
 * <p>
 * One class: the operator's commands with their checks and the words of their 409s, read together when what an
 * operator may do is checked.
 */
@ApplicationScoped
public class DeploymentService implements ManifestUsage {

    @Inject
    TimelineWriter timeline;

    static final int MAX_LIST = 1000;
    static final int MAX_COMMENT = 2000;

    /** Runs and their devices, read and written. */
    @Inject
    RunRepository runs;

    @Inject
    Clock clock;

    @Inject
    EngineConfig config;

    @Inject
    DeploymentScope scope;

    @Inject
    MetricGates metricGates;

    @Inject
    ChannelNames channels;

    /** Tells the engine, once the command committed, to pass now rather than at its next tick. */
    @Inject
    Event<EngineWake> wakes;

    public List<SystemDeployment> list() {
        return SystemDeployment.list("order by id desc");
    }

    public SystemDeployment get(long id) {
        SystemDeployment d = SystemDeployment.findById(id);
        if (d == null) {
            throw new NotFoundException("system deployment", id);
        }
        return d;
    }

    @Transactional
    public SystemDeployment create(DeploymentRequest r, String actor) {
        SystemDeployment d = new SystemDeployment();
        apply(d, r);
        d.createdAt = clock.instant();
        d.createdBy = actor;
        d.approvalRule = approvalRule(d);
        d.phase = DeploymentPhase.DRAFT;
        refreshPhase(d, List.of());
        d.persist();
        if (d.approvalRule != null) {
            DeploymentEvent.record(d.id, d.createdAt, DeploymentEvent.Kind.APPROVAL_REQUESTED, actor,
                    "awaits approval: " + d.approvalRule, null);
        }
        return d;
    }

    /**
     * Edits a deployment not yet started (a draft, or one awaiting approval): the request replaces its settings, as at
     * creation. Any change takes an approval back: what was approved is no longer what would run (issue 42).
     */
    @Transactional
    public SystemDeployment update(long id, DeploymentRequest r, String actor) {
        return update(id, stored -> r, actor);
    }

    /**
     * An edit ({@code PUT} or {@code PATCH}): {@code change} makes the whole request from what is stored (as a request,
     * {@link DeploymentRequest#of}), read under the deployment's lock; then validated and applied as above.
     */
    @Transactional
    public SystemDeployment update(long id, UnaryOperator<DeploymentRequest> change, String actor) {
        SystemDeployment d = lock(id);
        if (!d.phase.beforeStart()) {
            throw new ConflictException("deployment " + id + " is " + d.phase
                    + "; only a deployment not yet started (DRAFT or AWAITING_APPROVAL) can be edited");
        }
        DeploymentRequest r = change.apply(DeploymentRequest.of(d));
        List<Object> before = settings(d);
        String ruleBefore = d.approvalRule;
        apply(d, r);
        d.approvalRule = approvalRule(d);
        boolean changed = !before.equals(settings(d));
        Instant now = clock.instant();
        if (changed && d.approvedBy != null) {
            DeploymentEvent.record(d.id, now, DeploymentEvent.Kind.APPROVAL_WITHDRAWN, actor, "edited by "
                    + (actor == null ? "nobody" : actor) + " after " + d.approvedBy + " approved it: the approval is taken"
                    + " back" + (d.approvalRule == null ? "" : "; it awaits approval again: " + d.approvalRule), null);
            d.approvedBy = null;
            d.approvedAt = null;
            d.approvalComment = null;
        } else if (d.approvalRule != null && ruleBefore == null) {
            DeploymentEvent.record(d.id, now, DeploymentEvent.Kind.APPROVAL_REQUESTED, actor,
                    "awaits approval: " + d.approvalRule, null);
        }
        refreshPhase(d);
        return d;
    }

    /** What an approval covers: every setting an edit can change. */
    private static List<Object> settings(SystemDeployment d) {
        return Arrays.asList(d.name, d.manifestId, d.channelId, List.copyOf(d.groups), List.copyOf(d.systems),
                d.maxParallel, d.maxFailed, d.byCentre, d.orderTimeoutSeconds, d.metricGateQuery, d.metricGateCondition,
                d.windows, d.verifyTimeoutSeconds, d.soakSeconds);
    }

    /**
     * The four-eyes rule for this deployment in words, naming its creator, or null when neither its manifest's system
     * type nor its channel requires approval.
     */
    String approvalRule(SystemDeployment d) {
        List<String> who = new ArrayList<>();
        Manifest m = Manifest.findById(d.manifestId);
        SystemType type = m == null ? null : SystemType.findById(m.systemTypeId);
        if (type != null && type.approvalRequired) {
            who.add("system type '" + type.name + "'");
        }
        if (d.channelId != null && channels.approvalRequired(d.channelId)) {
            who.add("channel '" + channels.name(d.channelId).orElse("#" + d.channelId) + "'");
        }
        if (who.isEmpty()) {
            return null;
        }
        return String.join(" and ", who) + (who.size() == 1 ? " requires" : " require") + " four eyes: an approver other"
                + " than " + (d.createdBy == null ? "its creator" : d.createdBy + ", who created it,")
                + " must approve it before it can start";
    }

    /**
     * Approves a deployment awaiting approval, as an approver other than its creator; a channel's then starts, as its
     * release would have started it. The creator's own approval is refused (403, naming the rule).
     */
    @Transactional
    public SystemDeployment approve(long id, String comment, String actor) {
        SystemDeployment d = decidable(id, comment, actor, "approve");
        Instant now = clock.instant();
        d.approvedBy = actor;
        d.approvedAt = now;
        d.approvalComment = blankToNull(comment);
        refreshPhase(d);
        DeploymentEvent.record(d.id, now, DeploymentEvent.Kind.APPROVED, actor, "approved by " + actor
                + (d.approvalComment == null ? "" : ": " + d.approvalComment), d.approvalComment);
        if (d.followsChannel) {
            start(d.id, d.createdBy);
        }
        return d;
    }

    /** Rejects a deployment awaiting approval, with why ({@code comment}, required): it ends REJECTED, never started. */
    @Transactional
    public SystemDeployment reject(long id, String comment, String actor) {
        if (comment == null || comment.isBlank()) {
            throw new InvalidRequestException("comment", "is required: say why it is rejected");
        }
        SystemDeployment d = decidable(id, comment, actor, "reject");
        Instant now = clock.instant();
        d.rejectedBy = actor;
        d.rejectedAt = now;
        d.approvalComment = comment.strip();
        d.followsChannel = false;
        refreshPhase(d);
        DeploymentEvent.record(d.id, now, DeploymentEvent.Kind.REJECTED, actor, "rejected by " + actor + ": "
                + d.approvalComment, d.approvalComment);
        return d;
    }

    /** The deployment, locked, if this person may approve or reject it now. */
    private SystemDeployment decidable(long id, String comment, String actor, String verb) {
        if (comment != null && comment.length() > MAX_COMMENT) {
            throw new InvalidRequestException("comment", "at most " + MAX_COMMENT + " characters");
        }
        SystemDeployment d = lock(id);
        if (d.phase != DeploymentPhase.AWAITING_APPROVAL) {
            throw new ConflictException("deployment " + id + " is " + d.phase + "; only a deployment AWAITING_APPROVAL can"
                    + " be " + (verb.equals("approve") ? "approved" : "rejected")
                    + (d.approvalRule == null ? " (its system type and channel require no approval)" : ""));
        }
        if (actor == null || actor.equals(d.createdBy)) {
            throw new RefusedException("four eyes: " + (actor == null ? "nobody" : actor) + " created deployment " + id
                    + " and may not " + verb + " it; " + d.approvalRule);
        }
        return d;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    /** Checks the request and sets the deployment's settings from it (a create, or an edit before the start). */
    private void apply(SystemDeployment d, DeploymentRequest r) {
        FieldErrors errors = new FieldErrors();
        if (r == null) {
            errors.add("", "a JSON body with name and manifestId is required").throwIfAny();
        }
        errors.text(r.name(), "name", 128);
        if (r.manifestId() == null) {
            errors.add("manifestId", "is required");
        } else if (Manifest.findById(r.manifestId()) == null) {
            errors.add("manifestId", "manifest " + r.manifestId() + " does not exist");
        }
        if (r.channelId() != null && channels.name(r.channelId()).isEmpty()) {
            errors.add("fleetId", "no channel " + r.channelId());
        }
        int maxParallel = r.maxParallel() == null ? 1 : r.maxParallel();
        int maxFailed = r.maxFailed() == null ? 0 : r.maxFailed();
        int timeout = r.orderTimeoutSeconds() == null ? (int) config.defaultOrderTimeout().toSeconds() : r.orderTimeoutSeconds();
        errors.check(maxParallel >= 1 && maxParallel <= 10_000, "maxParallel", "must be between 1 and 10000");
        errors.check(maxFailed >= 0 && maxFailed <= 1_000_000, "maxFailed", "must be 0 or more");
        errors.check(timeout >= 5 && timeout <= 7 * 24 * 3600, "orderTimeoutSeconds", "must be between 5 and 604800");
        int verifyTimeout = r.verifyTimeoutSeconds() == null ? SystemDeployment.DEFAULT_VERIFY_TIMEOUT_SECONDS
                : r.verifyTimeoutSeconds();
        int soak = r.soakSeconds() == null ? 0 : r.soakSeconds();
        errors.check(verifyTimeout >= 1 && verifyTimeout <= SystemDeployment.MAX_VERIFY_SECONDS, "verifyTimeoutSeconds",
                "must be between 1 and " + SystemDeployment.MAX_VERIFY_SECONDS + " (a day)");
        errors.check(soak >= 0 && soak <= SystemDeployment.MAX_VERIFY_SECONDS, "soakSeconds",
                "must be between 0 (no soak) and " + SystemDeployment.MAX_VERIFY_SECONDS + " (a day)");
        checkNames(r.groups(), "groups", errors);
        checkNames(r.systems(), "systems", errors);
        metricGates.check(r.metricGate(), "metricGate", errors);
        WindowsValidation.check(r.windows(), "windows", clock.instant(), errors);
        errors.throwIfAny();

        d.name = r.name();
        d.manifestId = r.manifestId();
        d.channelId = r.channelId();
        d.groups = r.groups() == null ? new ArrayList<>() : new ArrayList<>(r.groups());
        d.systems = r.systems() == null ? new ArrayList<>() : new ArrayList<>(r.systems());
        d.maxParallel = maxParallel;
        d.maxFailed = maxFailed;
        d.byCentre = Boolean.TRUE.equals(r.byCentre());
        d.orderTimeoutSeconds = timeout;
        d.metricGateQuery = null;
        d.metricGateCondition = null;
        if (r.metricGate() != null) {
            d.metricGateQuery = r.metricGate().query();
            d.metricGateCondition = r.metricGate().condition().strip();
        }
        d.windows = Windows.orNull(r.windows());
        d.verifyTimeoutSeconds = verifyTimeout;
        d.soakSeconds = soak;
    }

    private static void checkNames(List<String> names, String field, FieldErrors errors) {
        if (names == null) {
            return;
        }
        if (!errors.check(names.size() <= MAX_LIST, field, "at most " + MAX_LIST + " entries")) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            if (errors.text(n, field + "[" + i + "]", 256)) {
                errors.check(seen.add(n), field + "[" + i + "]", "'" + n + "' appears more than once");
            }
        }
    }

    /**
     * Starts a draft: the systems in scope are fixed as pending runs, in the order they will be taken. One made by hand
     * with nothing in scope is refused (409, saying why); a channel's may be empty, its systems join later.
     */
    @Transactional
    public SystemDeployment start(long id, String actor) {
        SystemDeployment d = lock(id);
        if (d.phase == DeploymentPhase.AWAITING_APPROVAL) {
            throw new ConflictException("deployment " + id + " is AWAITING_APPROVAL and cannot start until it is approved: "
                    + d.approvalRule);
        }
        if (d.phase != DeploymentPhase.DRAFT) {
            throw new ConflictException("deployment " + id + " is " + d.phase + "; only a DRAFT can be started");
        }
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
        if (d.phase != DeploymentPhase.RUNNING) {
            throw new ConflictException("deployment " + id + " is " + d.phase + "; only a RUNNING deployment can be paused");
        }
        d.paused = true;
        d.pausedBy = actor;
        refreshPhase(d);
        recordOnUnderWay(d, new TimelineEvent.Paused(), actor);
        return d;
    }

    @Transactional
    public SystemDeployment resume(long id, String actor) {
        SystemDeployment d = lock(id);
        if (d.phase != DeploymentPhase.PAUSED) {
            throw new ConflictException("deployment " + id + " is " + d.phase + "; only a PAUSED deployment can be resumed");
        }
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
        if (d.phase == DeploymentPhase.ABORTED || d.phase == DeploymentPhase.ABORTING || d.phase == DeploymentPhase.FINISHED
                || d.phase == DeploymentPhase.REJECTED) {
            throw new ConflictException("deployment " + id + " is " + d.phase + "; there is nothing left to abort");
        }
        List<Long> pending = runs.summaries(d.id).stream().filter(r -> r.state() == RunState.PENDING)
                .map(DeploymentPhase.RunSummary::id).toList();
        if (d.phase == DeploymentPhase.FAILED && pending.isEmpty()) {
            throw new ConflictException("deployment " + id + " is FAILED with no system left to start; there is nothing"
                    + " to abort: take a rolled-back system again, or leave it as it is");
        }
        d.aborted = true;
        d.abortedBy = actor;
        Instant now = clock.instant();
        for (SystemRun run : runs.lock(pending)) {
            if (run.state != RunState.PENDING) {
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
        if (run.state != RunState.RUNNING && run.state != RunState.VERIFYING && run.state != RunState.SUCCEEDED) {
            throw new ConflictException("system '" + run.system + "' is " + run.state
                    + "; only a RUNNING, VERIFYING or SUCCEEDED system can be rolled back by hand");
        }
        if (run.rollbackCause != null) {
            throw new ConflictException("system '" + run.system + "' is already going back ("
                    + run.rollbackCause.name().toLowerCase() + ")");
        }
        if (run.state == RunState.SUCCEEDED) {
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
        if (d.aborted) {
            throw new ConflictException("deployment " + deploymentId + " was aborted; start a new deployment instead");
        }
        if (run.state.seen(run.rollbackCause) == RunState.ROLLING_BACK) {
            throw stillRollingBack(run);
        }
        if (!run.state.wentBack()) {
            throw new ConflictException("system '" + run.system + "' is " + run.state
                    + "; only a ROLLED_BACK or ROLLBACK_FAILED system can be taken again");
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
        return new ConflictException(run.system + " is still rolling back (" + back + " of " + (back + going)
                + " devices back): take it again once it reads ROLLED_BACK (or ROLLBACK_FAILED)", (int) seconds);
    }

    /**
     * Another deployment's run of this system (or of one sharing a device with it) under way, or started after this
     * one ended: going back to this run's photograph would undo it.
     */
    private Optional<String> otherDriver(SystemRun run) {
        return runs.otherDriver(run).map(o -> "deployment \"" + o.deploymentName() + "\" (#" + o.deploymentId() + ") "
                + (o.state().underWay() ? "is driving it now" : "has updated it since"));
    }

    @Override
    public void checkChange(Manifest m) {
        long open = SystemDeployment.count("manifestId = :m and phase not in :ended", Parameters.with("m", m.id)
                .and("ended", List.of(DeploymentPhase.FINISHED, DeploymentPhase.FAILED, DeploymentPhase.ABORTED,
                        DeploymentPhase.REJECTED)));
        if (open > 0) {
            throw new ConflictException("manifest '" + m.name + "' is used by " + open
                    + " deployment(s) that have not ended; abort or finish them first");
        }
    }

    SystemDeployment lock(long id) {
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
        refreshPhase(d, runs.summaries(d.id));
    }

    void refreshPhase(SystemDeployment d, List<DeploymentPhase.RunSummary> runs) {
        d.refreshPhase(runs, clock.instant());
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
