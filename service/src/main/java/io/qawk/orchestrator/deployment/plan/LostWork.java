package io.qawk.orchestrator.deployment.plan;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A photograph is never taken from Qawk's own lost work: a device that hawkBit shows on the manifest's set already,
 * because Qawk's user sent it that set after this deployment started (and the commit that recorded it was lost: a
 * restore, a standby promoted), is photographed on the set it finished before that action, read from its action
 * history. A device that was on the set before the deployment started (no such action) stays "already on it". Pure:
 * the engine reads the actions.
 */
public final class LostWork {

    private LostWork() {
    }

    /**
     * An action hawkBit holds for a device, as read on its own ({@code setId} null when it was not read): {@code
     * status} as hawkBit names it, {@code open} while the device has not ended it.
     */
    public record Action(long id, String createdBy, Instant createdAt, Long setId, String status, boolean open) {

        public boolean finished() {
            return !open && "finished".equalsIgnoreCase(status);
        }

        /** Sent by Qawk's user since the deployment started: it may be this deployment's own work. */
        public boolean oursSince(String qawkUser, Instant started) {
            return qawkUser != null && qawkUser.equals(createdBy) && createdAt != null && !createdAt.isBefore(started);
        }
    }

    /**
     * The photograph rebuilt: {@code actionId} the action of Qawk's lost work that gave the device its destination,
     * {@code setId} the set it finished before that action (null: hawkBit's history shows none; it ran nothing).
     */
    public record Before(long actionId, Long setId) {
    }

    /**
     * What a device already on {@code toSetId} ran before this deployment moved it: empty when no action of Qawk's
     * user created at or after {@code started} gave it that set (it was on it before: "already on it"); else the set
     * of the last action that finished before the first such action. {@code actions} in any order.
     */
    public static Optional<Before> before(List<Action> actions, long toSetId, String qawkUser, Instant started) {
        Objects.requireNonNull(started, "started");
        List<Action> sorted = actions.stream().sorted(Comparator.comparingLong(Action::id)).toList();
        Optional<Action> lost = sorted.stream()
                .filter(a -> a.oursSince(qawkUser, started) && a.setId() != null && a.setId() == toSetId).findFirst();
        if (lost.isEmpty()) {
            return Optional.empty();
        }
        long first = lost.get().id();
        Long before = sorted.stream().filter(a -> a.id() < first && a.finished())
                .reduce((a, b) -> b).map(Action::setId).orElse(null);
        return Optional.of(new Before(first, before));
    }
}
