package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.common.InvalidRequestException;
import io.qawk.orchestrator.common.RefusedException;
import io.qawk.orchestrator.deployment.model.Command;
import io.qawk.orchestrator.deployment.model.DeploymentEvent;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.systemtype.SystemType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Four eyes (issue 42): the rule a deployment's system type or channel sets, an approver's approval or rejection, and
 * an approval taken back by an edit. Which phase allows a decision, and the words of a no, come from the phase.
 */
@ApplicationScoped
public class DeploymentApprovals {

    static final int MAX_COMMENT = 2000;

    @Inject
    Clock clock;

    @Inject
    ChannelNames channels;

    /** A channel's deployment starts once approved, as its release would have started it. */
    @Inject
    DeploymentCommands commands;

    /**
     * The four-eyes rule for this deployment in words, naming its creator, or null when neither its manifest's system
     * type nor its channel requires approval.
     */
    String rule(SystemDeployment d) {
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

    /** A new deployment: its rule set, and its wait for an approval recorded when it needs one. */
    void created(SystemDeployment d, String actor) {
        if (d.approvalRule != null) {
            DeploymentEvent.record(d.id, d.createdAt, DeploymentEvent.Kind.APPROVAL_REQUESTED, actor,
                    "awaits approval: " + d.approvalRule, null);
        }
    }

    /** What an approval covers: every setting an edit can change. */
    static List<Object> settings(SystemDeployment d) {
        return Arrays.asList(d.name, d.manifestId, d.channelId, List.copyOf(d.groups), List.copyOf(d.systems),
                d.maxParallel, d.maxFailed, d.byCentre, d.orderTimeoutSeconds, d.metricGateQuery, d.metricGateCondition,
                d.windows, d.verifyTimeoutSeconds, d.soakSeconds);
    }

    /**
     * After an edit ({@code before}: its {@link #settings} and {@code ruleBefore}: its rule before): any change takes
     * an approval back, since what was approved is no longer what would run; a rule that appeared asks for one.
     */
    void edited(SystemDeployment d, List<Object> before, String ruleBefore, String actor) {
        d.approvalRule = rule(d);
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
    }

    /**
     * Approves a deployment awaiting approval, as an approver other than its creator; a channel's then starts, as its
     * release would have started it. The creator's own approval is refused (403, naming the rule).
     */
    @Transactional
    public SystemDeployment approve(long id, String comment, String actor) {
        SystemDeployment d = decidable(id, comment, actor, Command.APPROVE);
        Instant now = clock.instant();
        d.approvedBy = actor;
        d.approvedAt = now;
        d.approvalComment = blankToNull(comment);
        commands.refreshPhase(d);
        DeploymentEvent.record(d.id, now, DeploymentEvent.Kind.APPROVED, actor, "approved by " + actor
                + (d.approvalComment == null ? "" : ": " + d.approvalComment), d.approvalComment);
        if (d.followsChannel) {
            commands.start(d.id, d.createdBy);
        }
        return d;
    }

    /** Rejects a deployment awaiting approval, with why ({@code comment}, required): it ends REJECTED, never started. */
    @Transactional
    public SystemDeployment reject(long id, String comment, String actor) {
        if (comment == null || comment.isBlank()) {
            throw new InvalidRequestException("comment", "is required: say why it is rejected");
        }
        SystemDeployment d = decidable(id, comment, actor, Command.REJECT);
        Instant now = clock.instant();
        d.rejectedBy = actor;
        d.rejectedAt = now;
        d.approvalComment = comment.strip();
        d.followsChannel = false;
        commands.refreshPhase(d);
        DeploymentEvent.record(d.id, now, DeploymentEvent.Kind.REJECTED, actor, "rejected by " + actor + ": "
                + d.approvalComment, d.approvalComment);
        return d;
    }

    /** The deployment, locked, if this person may approve or reject it now. */
    private SystemDeployment decidable(long id, String comment, String actor, Command decision) {
        if (comment != null && comment.length() > MAX_COMMENT) {
            throw new InvalidRequestException("comment", "at most " + MAX_COMMENT + " characters");
        }
        SystemDeployment d = SystemDeployment.lock(id);
        d.check(decision);
        if (actor == null || actor.equals(d.createdBy)) {
            throw new RefusedException("four eyes: " + (actor == null ? "nobody" : actor) + " created deployment " + id
                    + " and may not " + decision.verb() + " it; " + d.approvalRule);
        }
        return d;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
