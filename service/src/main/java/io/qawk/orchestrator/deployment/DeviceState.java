package io.qawk.orchestrator.deployment;

/**
 * Where one device of a run stands. Forward: WAITING → ASSIGNING (intent stored) → ASSIGNED (hawkBit took it) →
 * SUCCEEDED | FAILED, or ALREADY_ON_SET when it ran its set before anything moved. Backward: ROLLBACK_WAITING →
 * ROLLBACK_ASSIGNING → ROLLBACK_ASSIGNED → ROLLED_BACK | ROLLBACK_FAILED; LEFT_AS_IS when it ran nothing before;
 * NOT_SENT when the run went back before its order was reached. LEFT_SYSTEM when it left the system during the run
 * and TAKEN_OVER when someone else gave it another set in hawkBit: both fail the run, and neither is sent back (it
 * is no longer this system's, or the other person's assignment stands).
 */
public enum DeviceState {
    WAITING, ALREADY_ON_SET, ASSIGNING, ASSIGNED, SUCCEEDED, FAILED, NOT_SENT,
    ROLLBACK_WAITING, ROLLBACK_ASSIGNING, ROLLBACK_ASSIGNED, ROLLED_BACK, ROLLBACK_FAILED, LEFT_AS_IS,
    LEFT_SYSTEM, TAKEN_OVER;

    /** Out of this run's hands: it left the system, or someone else took it over. */
    boolean outOfHands() {
        return this == LEFT_SYSTEM || this == TAKEN_OVER;
    }

    /** hawkBit has been (or is about to be) told something for this device that has not finished yet. */
    public boolean inFlight() {
        return this == ASSIGNING || this == ASSIGNED || this == ROLLBACK_ASSIGNING || this == ROLLBACK_ASSIGNED;
    }

    boolean rollingBack() {
        return this == ROLLBACK_WAITING || this == ROLLBACK_ASSIGNING || this == ROLLBACK_ASSIGNED;
    }
}
