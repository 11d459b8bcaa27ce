package io.qawk.orchestrator.testkit.scale;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the scale double holds: distribution sets, targets, actions and their status history, rollouts and target
 * filters (mutable, guarded by {@link TargetStore}'s lock).
 */
final class Entities {

    private Entities() {
    }

    static final class DSet {
        final long id;
        final String name;
        final String version;
        final boolean complete;
        final long createdAt;

        DSet(long id, String name, String version, boolean complete, long createdAt) {
            this.id = id;
            this.name = name;
            this.version = version;
            this.complete = complete;
            this.createdAt = createdAt;
        }

        ScaleHawkbit.SetInfo info() {
            return new ScaleHawkbit.SetInfo(id, name, version);
        }
    }

    static final class Target {
        final String id;
        final long seq;
        final long createdAt;
        long lastModifiedAt;
        String name;
        Map<String, String> attributes = Map.of();
        Map<String, String> metadata = Map.of();
        Set<String> tags = Set.of();
        String updateStatus = "registered";
        long lastRequestAt; // 0 = never
        long installedAt; // 0 = never
        DSet installed;
        DSet assigned;
        final List<Action> actions = new ArrayList<>(1);

        Target(String id, long seq, long now) {
            this.id = id;
            this.name = id;
            this.seq = seq;
            this.createdAt = now;
            this.lastModifiedAt = now;
        }
    }

    record StatusEntry(long id, String type, String message, long reportedAt) {
    }

    static final class Action {
        final long id;
        final Target target;
        final DSet set;
        final long createdAt;
        final String forceType;
        String state = "running"; // running, finished, error, canceled
        boolean active = true;
        final List<StatusEntry> history = new ArrayList<>(4);
        long dueAt;
        long finishedAt;
        ScaleHawkbit.Outcome outcome;

        Action(long id, Target target, DSet set, long createdAt, String forceType) {
            this.id = id;
            this.target = target;
            this.set = set;
            this.createdAt = createdAt;
            this.forceType = forceType;
        }

        ScaleHawkbit.ActionView view() {
            return new ScaleHawkbit.ActionView(id, target.id, set.id, state, active, createdAt, finishedAt);
        }
    }

    /** A rollout: its query, set and status (hawkBit's lower-case words: running, paused, …). */
    static final class Rollout {
        final long id;
        final String name;
        final String query;
        final DSet set;
        final long createdAt;
        String status;
        long lastModifiedAt;

        Rollout(long id, String name, String query, DSet set, String status, long now) {
            this.id = id;
            this.name = name;
            this.query = query;
            this.set = set;
            this.status = status;
            this.createdAt = now;
            this.lastModifiedAt = now;
        }

        ScaleHawkbit.RolloutView view() {
            return new ScaleHawkbit.RolloutView(id, name, query, set.id, status, lastModifiedAt);
        }
    }

    /** A target filter, with its auto-assigned set and action type (both null when none). */
    static final class TargetFilter {
        final long id;
        final String name;
        final long createdAt;
        String query;
        DSet autoAssign;
        String actionType;
        long lastModifiedAt;

        TargetFilter(long id, String name, String query, DSet autoAssign, String actionType, long now) {
            this.id = id;
            this.name = name;
            this.query = query;
            this.autoAssign = autoAssign;
            this.actionType = autoAssign == null ? null : actionType;
            this.createdAt = now;
            this.lastModifiedAt = now;
        }

        ScaleHawkbit.FilterView view() {
            return new ScaleHawkbit.FilterView(id, name, query, autoAssign == null ? null : autoAssign.id, actionType,
                    lastModifiedAt);
        }
    }
}
