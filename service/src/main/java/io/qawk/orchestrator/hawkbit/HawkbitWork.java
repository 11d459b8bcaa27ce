package io.qawk.orchestrator.hawkbit;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What hawkBit is about to do outside Qawk, and the ways a client may stop it: rollouts (listed, paused, resumed,
 * denied), target filters with an auto-assigned set (listed, switched off, switched on again) and open actions
 * (cancelled). Read and done through {@link HawkbitGateway}.
 * <p>
 * On every version: {@code GET /rollouts} filters only by name, description and id (0.3.0M7 answers 400 to
 * {@code status}), so the open ones are picked here; pausing a rollout that is not running, cancelling an action that
 * is closed or already cancelling, and denying a rollout that waits for no approval answer 4xx: each is said as
 * {@code false}, not thrown.
 */
final class HawkbitWork {

    private final HawkbitClient client;

    HawkbitWork(HawkbitClient client) {
        this.client = client;
    }

    List<HawkbitRollout> openRollouts() {
        List<HawkbitRollout> open = new ArrayList<>();
        client.pageThrough("rollouts", null, (api, offset, limit) -> api.rollouts(offset, limit, "id:ASC"),
                HawkbitShapes.Rollout.class, page -> page.forEach(r -> {
                    if (r.id() == null) {
                        throw HawkbitClient.malformed("rollouts", "rollout without id");
                    }
                    HawkbitRollout rollout = new HawkbitRollout(r.id(), r.name(),
                            r.status() == null ? "" : r.status().toLowerCase(Locale.ROOT),
                            r.targetFilterQuery(), r.distributionSetId(), instant(r.lastModifiedAt()));
                    if (!Boolean.TRUE.equals(r.deleted()) && rollout.open()) {
                        open.add(rollout);
                    }
                }));
        return open;
    }

    List<HawkbitAutoAssignment> autoAssignments() {
        List<HawkbitAutoAssignment> out = new ArrayList<>();
        client.pageThrough("target_filters", null, (api, offset, limit) -> api.targetFilters(offset, limit, "id:ASC"),
                HawkbitShapes.TargetFilter.class, page -> page.forEach(f -> {
                    if (f.id() != null && f.autoAssignDistributionSet() != null) {
                        out.add(new HawkbitAutoAssignment(f.id(), f.name(), f.query(), f.autoAssignDistributionSet(),
                                f.autoAssignActionType(), instant(f.lastModifiedAt())));
                    }
                }));
        return out;
    }

    /**
     * Whether the tenant's rollout approval is on ({@code rollout.approval.enabled}, on 0.3.0M7 and 1.x); empty when
     * hawkBit does not say (reading it needs the permission {@code TENANT_CONFIGURATION}: 403 without).
     */
    Optional<Boolean> rolloutApproval() {
        HawkbitClient.Reply reply = client.call("tenant_config",
                api -> api.tenantConfig(HawkbitVersions.ROLLOUT_APPROVAL));
        if (!reply.isSuccess() || !reply.hasBody()) {
            return Optional.empty();
        }
        JsonNode value = client.parse("tenant_config", reply).path("value");
        return value.isBoolean() ? Optional.of(value.asBoolean()) : Optional.empty();
    }

    /**
     * Whether hawkBit keeps auto-assignments as objects of their own ({@code GET /rest/v1/autoassignments}, see
     * {@link HawkbitVersions#autoAssignmentObjects}); empty when its answer does not tell.
     */
    Optional<Boolean> autoAssignmentObjects() {
        HawkbitClient.Reply reply = client.call("auto_assignment_objects", api -> api.autoAssignmentObjects(0, 1));
        return HawkbitVersions.autoAssignmentObjects(reply.status());
    }

    /** The name of the rollout's deployment group that holds the target; empty when none does. */
    Optional<String> groupOf(long rolloutId, String controllerId) {
        String targetQuery = Fiql.eq("controllerId", controllerId);
        List<HawkbitShapes.RolloutGroup> groups = new ArrayList<>();
        client.pageThrough("rollout_groups", null, (api, offset, limit) -> api.rolloutGroups(rolloutId, offset, limit),
                HawkbitShapes.RolloutGroup.class, groups::addAll);
        for (HawkbitShapes.RolloutGroup g : groups) {
            if (g.id() == null) {
                continue;
            }
            List<HawkbitShapes.Target> found = new ArrayList<>();
            client.pageThrough("rollout_group_targets", null,
                    (api, offset, limit) -> api.rolloutGroupTargets(rolloutId, g.id(), offset, limit, targetQuery),
                    HawkbitShapes.Target.class, found::addAll);
            if (!found.isEmpty()) {
                return Optional.ofNullable(g.name());
            }
        }
        return Optional.empty();
    }

    /** Pauses a running rollout; false when hawkBit says it is not running (paused already, finished, …). */
    boolean pause(long rolloutId) {
        return accepted("rollout_pause", client.call("rollout_pause", api -> api.pauseRollout(rolloutId)));
    }

    /** Resumes a paused rollout; false when hawkBit says it is not paused. */
    boolean resume(long rolloutId) {
        return accepted("rollout_resume", client.call("rollout_resume", api -> api.resumeRollout(rolloutId)));
    }

    /** Refuses a rollout that waits for approval, with a remark; false when it waits for none. */
    boolean deny(long rolloutId, String remark) {
        return accepted("rollout_deny", client.call("rollout_deny", api -> api.denyRollout(rolloutId, remark)));
    }

    /** Takes the auto-assigned set off a target filter; false when the filter is gone. */
    boolean switchOff(long filterId) {
        return accepted("auto_assignment_off",
                client.call("auto_assignment_off", api -> api.switchOffAutoAssignment(filterId)));
    }

    /** Gives a target filter its auto-assigned set again; false when the filter or the set is gone. */
    boolean switchOn(long filterId, long setId, String actionType) {
        return accepted("auto_assignment_on", client.call("auto_assignment_on",
                api -> api.autoAssign(filterId, new HawkbitShapes.AutoAssignment(setId, actionType))));
    }

    /** Cancels an open action (the device confirms it); false when hawkBit refuses (closed, cancelling already). */
    boolean cancel(String segment, long actionId) {
        return accepted("action_cancel", client.call("action_cancel", api -> api.cancelAction(segment, actionId)));
    }

    /** 2xx: true; another 4xx: false (the state did not allow it); anything else was thrown by the client. */
    private boolean accepted(String operation, HawkbitClient.Reply reply) {
        if (reply.isSuccess()) {
            return true;
        }
        if (reply.status() >= 400 && reply.status() < 500 && reply.status() != 401 && reply.status() != 403) {
            return false;
        }
        client.failUnlessSuccess(operation, reply, null);
        return false;
    }

    private static Instant instant(Long millis) {
        return millis == null ? null : Instant.ofEpochMilli(millis);
    }
}
