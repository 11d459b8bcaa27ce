package io.qawk.orchestrator.deployment.model;

import java.util.EnumSet;
import java.util.Set;

/**
 * Where one device of a run stands. Forward: WAITING → ASSIGNING (intent stored) → ASSIGNED (hawkBit took it) →
 * SUCCEEDED | FAILED, or ALREADY_ON_SET when it ran its set before anything moved; a device whose component names a
 * verification query goes ASSIGNED → VERIFYING (hawkBit says it finished) → SUCCEEDED (it matches the query) | FAILED
 * (it did not within the deployment's verify timeout). Backward: ROLLBACK_WAITING →
 * ROLLBACK_ASSIGNING → ROLLBACK_ASSIGNED → ROLLED_BACK | ROLLBACK_FAILED; LEFT_AS_IS when it ran nothing before;
 * NOT_SENT when the run went back before its order was reached; KEPT (from ROLLBACK_WAITING) when a device of a higher
 * order failed to go back, so this one stays on its new set: the way back stops where the way forward had been.
 * LEFT_SYSTEM when it left the system during the run
 * and TAKEN_OVER when someone else gave it another set in hawkBit: both fail the run, and neither is sent back (it
 * is no longer this system's, or the other person's assignment stands).
 *
 * <p>It changes only through {@link #to}, the one guard; {@link #next()} lists every move, including the ones
 * above leave out: an intent hawkBit never got goes back to waiting (ASSIGNING → WAITING, ROLLBACK_ASSIGNING →
 * ROLLBACK_WAITING) and one hawkBit refused fails (→ FAILED, → ROLLBACK_FAILED).
 */
public enum DeviceState {
    WAITING, ALREADY_ON_SET, ASSIGNING, ASSIGNED, SUCCEEDED, FAILED, NOT_SENT,
    ROLLBACK_WAITING, ROLLBACK_ASSIGNING, ROLLBACK_ASSIGNED, ROLLED_BACK, ROLLBACK_FAILED, LEFT_AS_IS,
    LEFT_SYSTEM, TAKEN_OVER,
    /** Installed (hawkBit says finished); waits to match its verification query. Not in flight: nothing is open. */
    VERIFYING,
    /**
     * Kept on its new set: a device of a higher order failed to go back, and sending this one back would put the
     * system on a mix its update never passed through.
     */
    KEPT;

    /** Out of this run's hands: it left the system, or someone else took it over. */
    public boolean outOfHands() {
        return this == LEFT_SYSTEM || this == TAKEN_OVER;
    }

    /** hawkBit has been (or is about to be) told something for this device that has not finished yet. */
    public boolean inFlight() {
        return this == ASSIGNING || this == ASSIGNED || this == ROLLBACK_ASSIGNING || this == ROLLBACK_ASSIGNED;
    }

    public boolean rollingBack() {
        return this == ROLLBACK_WAITING || this == ROLLBACK_ASSIGNING || this == ROLLBACK_ASSIGNED;
    }

    /** The states this one may go to (staying is not a move). */
    public Set<DeviceState> next() {
        return switch (this) {
            // its order: sent, or already on its set; the run went back first; it left the system
            case WAITING -> EnumSet.of(ASSIGNING, ALREADY_ON_SET, NOT_SENT, LEFT_SYSTEM);
            case ALREADY_ON_SET -> EnumSet.of(LEFT_SYSTEM);
            // hawkBit took it; it never got it (sent again); hawkBit refused it
            case ASSIGNING -> EnumSet.of(ASSIGNED, WAITING, FAILED);
            case ASSIGNED -> EnumSet.of(SUCCEEDED, VERIFYING, FAILED, TAKEN_OVER, LEFT_SYSTEM);
            // it matches its verification query, or did not in time; the run goes back (it installed: sent back too)
            case VERIFYING -> EnumSet.of(SUCCEEDED, FAILED, ROLLBACK_WAITING, LEFT_AS_IS, LEFT_SYSTEM);
            // the run goes back: sent back to its photographed set, or left as it is when it ran nothing before
            case SUCCEEDED, FAILED -> EnumSet.of(ROLLBACK_WAITING, LEFT_AS_IS, LEFT_SYSTEM);
            // sent back; or kept, because a device of a higher order did not go back
            case ROLLBACK_WAITING -> EnumSet.of(ROLLBACK_ASSIGNING, KEPT);
            case ROLLBACK_ASSIGNING -> EnumSet.of(ROLLBACK_ASSIGNED, ROLLBACK_WAITING, ROLLBACK_FAILED);
            case ROLLBACK_ASSIGNED -> EnumSet.of(ROLLED_BACK, ROLLBACK_FAILED, TAKEN_OVER);
            case NOT_SENT, ROLLED_BACK, ROLLBACK_FAILED, LEFT_AS_IS, LEFT_SYSTEM, TAKEN_OVER, KEPT ->
                    EnumSet.noneOf(DeviceState.class);
        };
    }

    public boolean canGo(DeviceState target) {
        return next().contains(target);
    }

    /** The guard: {@code target} when this state may go there, else an {@link IllegalStateException} naming both. */
    public DeviceState to(DeviceState target) {
        if (!canGo(target)) {
            throw new IllegalStateException("a device cannot go from " + this + " to " + target);
        }
        return target;
    }
}
