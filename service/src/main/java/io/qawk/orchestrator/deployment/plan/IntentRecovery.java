package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.hawkbit.ActionOutcome;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * What to do with a device stored as ASSIGNING (or ROLLBACK_ASSIGNING) whose assignment hawkBit never confirmed to
 * us (the service died, or hawkBit was down, between storing the intent and hawkBit's answer): adopt hawkBit's action
 * when hawkBit took the assignment, so nothing is assigned twice, else send it again. Pure: the engine asks hawkBit
 * and hands the answers in.
 */
public final class IntentRecovery {

    private IntentRecovery() {
    }

    /** Actions created this long before the intent still count: clocks of hawkBit and Qawk may differ. */
    static final long SKEW_SECONDS = 60;

    /**
     * The intent: the set it sends ({@code set}), whether it goes back, when it was decided (null: unknown), and the
     * device's forward action in this run (going back: the one that got it the set it now leaves; null: none known).
     */
    public record Intent(long set, boolean back, Instant decidedAt, Long forwardActionId) {
    }

    /** An action of the device as hawkBit lists it; {@code setId} null when hawkBit names none (up to 0.3.0M7). */
    public record Action(long id, Instant createdAt, Long setId) {
    }

    /**
     * What hawkBit says of the device when its action names no set: how the action stands, and the device's assigned
     * and installed sets (null: none, or not asked).
     */
    public record DeviceNow(ActionOutcome outcome, Long assignedSetId, Long installedSetId) {
    }

    /**
     * hawkBit's action for the intent, if hawkBit took the assignment (adopt it), or empty (send it again). Only the
     * device's newest action counts, and only when it is not older than the intent (minus {@link #SKEW_SECONDS}) and,
     * going back, newer than the forward action: an older action for the same set (the install a rollback returns
     * to, an earlier attempt) is not this one. Its set decides when hawkBit names it; otherwise {@code askDevice} is
     * asked (only then) and the device's state must agree: an open action is the assigned set, a finished one the
     * installed set; a failed or canceled one is adopted (nobody else assigns the device during its run; going back,
     * only when the forward action is known, since that one failed too).
     */
    public static Optional<Action> adopted(Intent intent, List<Action> actions, Function<Action, DeviceNow> askDevice) {
        Optional<Action> newest = actions.stream().max(Comparator.comparingLong(Action::id))
                .filter(a -> intent.decidedAt() == null || a.createdAt() == null
                        || !a.createdAt().isBefore(intent.decidedAt().minusSeconds(SKEW_SECONDS)))
                .filter(a -> !intent.back() || intent.forwardActionId() == null || a.id() > intent.forwardActionId());
        if (newest.isEmpty()) {
            return Optional.empty();
        }
        Action a = newest.get();
        if (a.setId() != null) {
            return a.setId() == intent.set() ? newest : Optional.empty();
        }
        DeviceNow device = askDevice.apply(a);
        boolean ours = switch (device.outcome()) {
            case RUNNING -> device.assignedSetId() != null && device.assignedSetId() == intent.set();
            case SUCCEEDED -> device.installedSetId() != null && device.installedSetId() == intent.set();
            case FAILED, CANCELED -> !intent.back() || intent.forwardActionId() != null;
        };
        return ours ? newest : Optional.empty();
    }
}
