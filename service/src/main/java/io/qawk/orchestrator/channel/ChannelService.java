package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.analysis.MetricGates;
import io.qawk.orchestrator.common.Approval;
import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.common.InvalidRequestException;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.deployment.ChannelDeployments;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.DeploymentRequest;
import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.query.TargetQuerySyntax;
import io.qawk.orchestrator.window.Windows;
import io.qawk.orchestrator.window.WindowsValidation;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Channels: their settings, their releases, resuming a halted release, and promotion behind the gate.
 *
 * <p>One class: the validation of a channel's settings, shared by the API and by configuration, lives with the
 * commands that apply them.
 */
@ApplicationScoped
public class ChannelService {


    @Inject
    Clock clock;

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    ChannelDeployments deployments;

    @Inject
    ReleaseStatus status;

    @Inject
    MetricGates metricGates;

    public List<Channel> list() {
        return Channel.list("order by name");
    }

    public Channel get(long id) {
        Channel f = Channel.findById(id);
        if (f == null) {
            throw new NotFoundException("channel", id);
        }
        return f;
    }

    @Transactional
    public Channel create(ChannelRequest r, String actor) {
        if (r == null) {
            throw new InvalidRequestException("", "a JSON body with name and match is required");
        }
        FieldErrors errors = new FieldErrors();
        errors.name(r.name(), "name");
        TargetQuerySyntax.problem(r.match()).ifPresent(p -> errors.add("match", p));
        validateSettings(r, null, errors);
        DistributionSetRef set = validateRelease(r, errors);
        errors.throwIfAny();
        if (Channel.findByName(r.name()).isPresent()) {
            throw new ConflictException("a channel named '" + r.name() + "' already exists");
        }
        Channel f = new Channel();
        f.name = r.name();
        f.match = r.match();
        f.createdAt = clock.instant();
        applySettings(f, r);
        f.updatedAt = f.createdAt;
        f.persist();
        if (r.releases()) {
            release(f, set, r.manifestId(), null, actor);
        }
        return f;
    }

    /** Changes the given settings and, when a set or manifest is given, releases it. */
    @Transactional
    public Channel update(long id, ChannelRequest r, String actor) {
        if (r == null) {
            throw new InvalidRequestException("", "a JSON body is required");
        }
        return update(id, f -> new ChannelUpdate(r, Set.of()), actor);
    }

    /**
     * A change ({@code PUT} or {@code PATCH}) made from the channel as stored, under its row lock: the settings given
     * change, those cleared ({@link ChannelUpdate#CLEARABLE}) are emptied, the rest keep their values; a set or manifest
     * given is released.
     */
    @Transactional
    Channel update(long id, Function<Channel, ChannelUpdate> change, String actor) {
        Channel f = Channel.findById(id, LockModeType.PESSIMISTIC_WRITE);
        if (f == null) {
            throw new NotFoundException("channel", id);
        }
        ChannelUpdate u = change.apply(f);
        ChannelRequest r = u.request();
        FieldErrors errors = new FieldErrors();
        if (r.name() != null) {
            errors.name(r.name(), "name");
        }
        if (r.match() != null) {
            TargetQuerySyntax.problem(r.match()).ifPresent(p -> errors.add("match", p));
        }
        validateSettings(r, f, errors);
        DistributionSetRef set = validateRelease(r, errors);
        errors.throwIfAny();
        boolean changesSettings = r.name() != null || r.match() != null || r.promotesTo() != null
                || r.orchestrator() != null || r.devices() != null || r.soakSeconds() != null || r.approval() != null
                || u.cleared().stream().anyMatch(c -> !c.equals("distributionSetId") && !c.equals("manifestId"));
        if (changesSettings && "configuration".equals(f.managedBy)) {
            throw new ConflictException("channel '" + f.name + "' is managed by configuration (Helm values); "
                    + "change its settings there. Releases through the API are allowed.");
        }
        if (r.name() != null && !r.name().equals(f.name) && Channel.findByName(r.name()).isPresent()) {
            throw new ConflictException("a channel named '" + r.name() + "' already exists");
        }
        if (changesSettings) {
            if (r.name() != null) {
                f.name = r.name();
            }
            if (r.match() != null) {
                f.match = r.match();
            }
            applySettings(f, r);
            clear(f, u);
            f.updatedAt = clock.instant();
        }
        if (r.releases()) {
            release(f, set, r.manifestId(), null, actor);
        }
        return f;
    }

    @Transactional
    public void delete(long id) {
        Channel f = get(id);
        if (Channel.count("promotesToId", f.id) > 0) {
            throw new ConflictException("channel '" + f.name + "' is the promotion target of another channel; change that first");
        }
        ChannelRelease.current(f.id).ifPresent(r -> {
            if (r.deploymentId != null) {
                deployments.brief(r.deploymentId).filter(d -> !d.phase().ended()).ifPresent(d -> {
                    throw new ConflictException("channel '" + f.name + "' has a release whose deployment "
                            + d.id() + " has not ended; abort it first");
                });
            }
        });
        deployments.forgetChannel(f.id);
        f.delete();
    }

    /** Settings from configuration (Helm values): created or updated, and marked as managed by configuration. */
    @Transactional
    public Channel applyManaged(ChannelRequest r, String promotesToName) {
        Channel f = Channel.findByName(r.name()).orElseGet(Channel::new);
        boolean isNew = f.id == null;
        FieldErrors errors = new FieldErrors();
        TargetQuerySyntax.problem(r.match()).ifPresent(p -> errors.add("match", p));
        validateSettings(new ChannelRequest(r.name(), r.match(), null, r.orchestrator(), r.devices(), r.soakSeconds(),
                null, null), isNew ? null : f, errors);
        errors.throwIfAny();
        f.name = r.name();
        f.match = r.match();
        f.managedBy = "configuration";
        applySettings(f, new ChannelRequest(null, null, null, r.orchestrator(), r.devices(), r.soakSeconds(), null, null));
        if (promotesToName != null) {
            f.promotesToId = Channel.findByName(promotesToName).map(t -> t.id).orElseThrow(() ->
                    new IllegalStateException("channel '" + r.name() + "' promotes to '" + promotesToName
                            + "', which is not declared"));
        } else {
            f.promotesToId = null;
        }
        Instant now = clock.instant();
        if (isNew) {
            f.createdAt = now;
        }
        f.updatedAt = now;
        f.persist();
        return f;
    }

    private void validateSettings(ChannelRequest r, Channel existing, FieldErrors errors) {
        if (r.promotesTo() != null) {
            Channel target = Channel.findById(r.promotesTo());
            if (target == null) {
                errors.add("promotesTo", "channel " + r.promotesTo() + " does not exist");
            } else if (existing != null && wouldCycle(existing.id, target)) {
                errors.add("promotesTo", "promoting to '" + target.name + "' would make a loop");
            }
        }
        if (r.orchestrator() != null) {
            ChannelRequest.Orchestrator o = r.orchestrator();
            if (o.maxParallel() != null) {
                errors.check(o.maxParallel() >= 1 && o.maxParallel() <= 10_000, "orchestrator.maxParallel",
                        "must be between 1 and 10000");
            }
            if (o.maxFailed() != null) {
                errors.check(o.maxFailed() >= 0, "orchestrator.maxFailed", "must be 0 or more");
            }
            WindowsValidation.check(o.windows(), "orchestrator.windows", clock.instant(), errors);
            if (o.verifyTimeoutSeconds() != null) {
                errors.check(o.verifyTimeoutSeconds() >= 1 && o.verifyTimeoutSeconds() <= 86_400,
                        "orchestrator.verifyTimeoutSeconds", "must be between 1 and 86400 (a day)");
            }
            if (o.soakSeconds() != null) {
                errors.check(o.soakSeconds() >= 0 && o.soakSeconds() <= 86_400, "orchestrator.soakSeconds",
                        "must be between 0 (no soak) and 86400 (a day)");
            }
            if (o.centres() != null) {
                Set<String> seen = new HashSet<>();
                for (int i = 0; i < o.centres().size(); i++) {
                    String c = o.centres().get(i);
                    if (errors.text(c, "orchestrator.centres[" + i + "]", 256)) {
                        errors.check(seen.add(c), "orchestrator.centres[" + i + "]", "'" + c + "' appears more than once");
                    }
                }
            }
            if (o.metricGate() != null && !o.metricGate().empty()) {
                metricGates.check(o.metricGate(), "orchestrator.metricGate", errors);
            }
        }
        if (r.devices() != null) {
            if (r.devices().maxFailed() != null) {
                errors.check(r.devices().maxFailed() >= 0, "devices.maxFailed", "must be 0 or more");
            }
            if (r.devices().batchSize() != null) {
                errors.check(r.devices().batchSize() >= 1 && r.devices().batchSize() <= 5000, "devices.batchSize",
                        "must be between 1 and 5000");
            }
        }
        if (r.soakSeconds() != null) {
            errors.check(r.soakSeconds() >= 0 && r.soakSeconds() <= 30 * 24 * 3600, "soakSeconds",
                    "must be between 0 and 2592000 (30 days)");
        }
        if (r.approval() != null) {
            errors.check(Approval.parse(r.approval()).isPresent(), "approval", Approval.invalid(r.approval()));
        }
    }

    private static boolean wouldCycle(long selfId, Channel target) {
        Set<Long> seen = new HashSet<>();
        for (Channel f = target; f != null; f = f.promotesToId == null ? null : Channel.findById(f.promotesToId)) {
            if (f.id == selfId || !seen.add(f.id)) {
                return true;
            }
        }
        return false;
    }

    private DistributionSetRef validateRelease(ChannelRequest r, FieldErrors errors) {
        DistributionSetRef set = null;
        if (r.manifestId() != null && Manifest.findById(r.manifestId()) == null) {
            errors.add("manifestId", "manifest " + r.manifestId() + " does not exist");
        }
        if (r.distributionSetId() != null) {
            set = hawkbit.distributionSet(r.distributionSetId()).orElse(null);
            if (set == null) {
                errors.add("distributionSetId", "distribution set " + r.distributionSetId() + " does not exist in hawkBit");
            } else if (!set.complete()) {
                errors.add("distributionSetId", "distribution set " + set.label() + " is incomplete and cannot be assigned");
            }
        }
        return set;
    }

    private static void applySettings(Channel f, ChannelRequest r) {
        if (r.promotesTo() != null) {
            f.promotesToId = r.promotesTo();
        }
        if (r.orchestrator() != null) {
            ChannelRequest.Orchestrator o = r.orchestrator();
            if (o.maxParallel() != null) {
                f.maxParallel = o.maxParallel();
            }
            if (o.maxFailed() != null) {
                f.maxFailed = o.maxFailed();
            }
            if (o.byCentre() != null) {
                f.byCentre = o.byCentre();
            }
            if (o.centres() != null) {
                f.centres = new ArrayList<>(o.centres());
            }
            if (o.metricGate() != null) {
                f.metricGateQuery = o.metricGate().empty() ? null : o.metricGate().query();
                f.metricGateCondition = o.metricGate().empty() ? null : o.metricGate().condition().strip();
            }
            if (o.windows() != null) {
                f.windows = Windows.orNull(o.windows());
            }
            if (o.verifyTimeoutSeconds() != null) {
                f.orchestratorVerifyTimeoutSeconds = o.verifyTimeoutSeconds();
            }
            if (o.soakSeconds() != null) {
                f.orchestratorSoakSeconds = o.soakSeconds();
            }
        }
        if (r.devices() != null) {
            if (r.devices().maxFailed() != null) {
                f.deviceMaxFailed = r.devices().maxFailed();
            }
            if (r.devices().batchSize() != null) {
                f.deviceBatchSize = r.devices().batchSize();
            }
        }
        if (r.soakSeconds() != null) {
            f.soakSeconds = r.soakSeconds();
        }
        if (r.approval() != null) {
            f.approvalRequired = Approval.parse(r.approval()).orElseThrow() == Approval.REQUIRED;
        }
    }

    /** Empties the settings a change cleared with {@code null}. */
    private static void clear(Channel f, ChannelUpdate u) {
        if (u.clears("promotesTo")) {
            f.promotesToId = null;
        }
        if (u.clears("approval")) {
            f.approvalRequired = false;
        }
        if (u.clears("orchestrator.centres")) {
            f.centres = new ArrayList<>();
        }
        if (u.clears("orchestrator.metricGate")) {
            f.metricGateQuery = null;
            f.metricGateCondition = null;
        }
        if (u.clears("orchestrator.windows")) {
            f.windows = null;
        }
    }

    /** A new release supersedes the current one: its deployment starts no new system; the new one photographs afresh. */
    ChannelRelease release(Channel f, DistributionSetRef set, Long manifestId, Long promotedFrom, String actor) {
        return release(f, set, manifestId, null, promotedFrom, actor);
    }

    /** … with the manifest's revision given (promotion: what passed the gate goes on), or frozen now when null. */
    ChannelRelease release(Channel f, DistributionSetRef set, Long manifestId, Long manifestRevisionId, Long promotedFrom,
                         String actor) {
        ChannelRelease.lockCurrent(f.id).ifPresent(old -> {
            old.state = old.state.to(ChannelRelease.State.SUPERSEDED);
            if (old.deploymentId != null) {
                deployments.abortIfOpen(old.deploymentId, actor);
            }
        });
        ChannelRelease r = new ChannelRelease();
        r.channelId = f.id;
        r.distributionSetId = set == null ? null : set.id();
        r.distributionSet = set == null ? null : set.label();
        r.manifestId = manifestId;
        r.promotedFromId = promotedFrom;
        r.createdAt = clock.instant();
        r.createdBy = actor;
        r.persist();
        if (manifestId != null) {
            Manifest m = Manifest.findById(manifestId);
            String name = f.name + " release " + r.id + " (" + m.name + ")";
            r.deploymentId = deployments.startForRelease(new DeploymentRequest(name.length() > 128
                    ? name.substring(0, 128) : name, manifestId, f.id, f.centres, List.of(), f.maxParallel, f.maxFailed,
                    f.byCentre, null, f.orchestratorVerifyTimeoutSeconds, f.orchestratorSoakSeconds, f.metricGate(),
                    f.windows), manifestRevisionId, actor);
        }
        return r;
    }

    /** Resumes a halted release: nothing resumes by itself. */
    @Transactional
    public ChannelRelease resume(long channelId, String actor) {
        Channel f = get(channelId);
        ChannelRelease r = ChannelRelease.lockCurrent(f.id).orElseThrow(() ->
                new ConflictException("nothing has been released to channel '" + f.name + "'"));
        if (!r.progress().resumable()) {
            throw new ConflictException("the release of channel '" + f.name + "' is not halted");
        }
        if (r.haltCause == ChannelRelease.HaltCause.SYSTEMS && r.deploymentId != null) {
            if (deployments.brief(r.deploymentId).map(ChannelDeployments.Brief::phase).orElse(null)
                    == DeploymentPhase.FAILED) {
                throw new ConflictException("the orchestrator of channel '" + f.name + "' still has more failed systems "
                        + "than it allows: take systems again (or release a new manifest) before resuming");
            }
        }
        r.acceptedFailures = (int) ReleaseDevice.count("releaseId = ?1 and state = ?2", r.id, ReleaseDevice.State.FAILED);
        r.halted = false;
        r.haltCause = null;
        r.haltReason = null;
        return r;
    }

    /** Promotes the current release to the next channel, when the gate allows. */
    @Transactional
    public ChannelRelease promote(long channelId, PromoteRequest body, String actor) {
        Channel f = get(channelId);
        ChannelView.Gate gate = gate(f);
        if (!gate.canPromote()) {
            throw new ConflictException("cannot promote from '" + f.name + "': " + gate.reason());
        }
        ChannelRelease from = ChannelRelease.current(f.id).orElseThrow();
        Channel target = get(f.promotesToId);
        boolean withManifest = body == null || body.orchestrator() == null || body.orchestrator();
        DistributionSetRef set = from.distributionSetId == null ? null
                : hawkbit.distributionSet(from.distributionSetId).orElseThrow(() -> new ConflictException(
                "distribution set " + from.distributionSet + " no longer exists in hawkBit"));
        Long manifest = withManifest ? from.manifestId : null;
        ChannelDeployments.Brief ran = manifest == null || from.deploymentId == null ? null
                : deployments.brief(from.deploymentId).orElse(null);
        if (set == null && manifest == null) {
            throw new ConflictException("the release of '" + f.name + "' has no set, and its manifest is left behind: "
                    + "nothing to promote");
        }
        return release(target, set, manifest, ran == null ? null : ran.manifestRevisionId(), from.id, actor);
    }

    /** Whether the current release may leave this channel. */
    public ChannelView.Gate gate(Channel f) {
        if (f.promotesToId == null) {
            return new ChannelView.Gate(false, "channel '" + f.name + "' promotes to no other channel");
        }
        ChannelRelease r = ChannelRelease.current(f.id).orElse(null);
        if (r == null) {
            return new ChannelView.Gate(false, "nothing has been released to '" + f.name + "'");
        }
        switch (r.progress()) {
            case HALTED -> {
                return new ChannelView.Gate(false, "the release is halted: " + r.haltReason);
            }
            case RUNNING -> {
                return new ChannelView.Gate(false, "the release has not reached every device and system of '" + f.name
                        + "' yet (" + status.words(r) + ")");
            }
            case COMPLETE -> {
                // promotable once soaked, below
            }
        }
        Instant soaked = r.completedAt.plusSeconds(f.soakSeconds);
        Instant now = clock.instant();
        if (now.isBefore(soaked)) {
            return new ChannelView.Gate(false, "the release must soak in '" + f.name + "' until " + soaked + " ("
                    + Duration.between(now, soaked).toSeconds() + " s more)");
        }
        return new ChannelView.Gate(true, "ready to promote to " + Channel.<Channel>findById(f.promotesToId).name);
    }
}
