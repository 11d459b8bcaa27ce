package io.qawk.orchestrator.deployment.model;

/**
 * What kind of thing happened to a run, stored with each entry of its timeline ({@code run_event.type}) and shown
 * by the API and the screen as the entry's {@code type}. Each kind has its data: the {@link TimelineEvent} record
 * of the same name, which also writes the words operators read.
 */
public enum RunEventKind {
    /** The system came into the deployment's scope. */
    CREATED,
    /** A pending system may not start yet (another deployment drives it, it is mixed, the release is halted). */
    WAITING,
    /** A pending system will not be started: it left the channel, or its devices vanished. */
    GIVEN_UP,
    /** Its devices and their sets were photographed when it started. */
    SNAPSHOT,
    /** An order's devices were decided to get their sets. */
    ORDER_SENT,
    /** hawkBit took an assignment (forward or back). */
    ASSIGNED,
    /** hawkBit took an order's assignment: how long after the last device of the order before finished in hawkBit. */
    ORDER_GAP,
    /** An assignment decided before an interruption was found in hawkBit and adopted. */
    RECOVERED,
    /** hawkBit refused an assignment. */
    ASSIGNMENT_REFUSED,
    /** A device installed its set, or is on its previous set again. */
    DEVICE_FINISHED,
    /** A device failed its update (reported, deleted in hawkBit, timed out). */
    DEVICE_FAILED,
    /** A device that finished matches its verification query. */
    DEVICE_VERIFIED,
    /** A device finished but did not match its verification query in time: it failed. */
    DEVICE_NOT_VERIFIED,
    /** Every order is done: the system soaks (must stay healthy) before it counts as updated. */
    SOAK_STARTED,
    /** During its soak the system stopped being healthy: it goes back. */
    SYSTEM_UNHEALTHY,
    /** hawkBit could not be asked (or the deployment was paused) during a soak: the soak goes on that much longer. */
    SOAK_EXTENDED,
    /** A device left the system during the update. */
    DEVICE_LEFT_SYSTEM,
    /** Someone else gave a device another set in hawkBit. */
    DEVICE_TAKEN_OVER,
    /** The system goes back: a device failed, or by hand. */
    ROLLBACK_STARTED,
    /** An order's devices were decided to go back to their photographed sets. */
    ROLLBACK_SENT,
    /** A device did not get back to its photographed set. */
    DEVICE_FAILED_TO_GO_BACK,
    /** Every component is on its set. */
    SUCCEEDED,
    /** Every device it updated is on its previous set again. */
    ROLLED_BACK,
    /** Some device did not get back. */
    ROLLBACK_FAILED,
    /** hawkBit could not be observed (or the deployment was paused) for a while: order timeouts extended. */
    TIMEOUTS_EXTENDED,
    PAUSED,
    RESUMED,
    /** The deployment was aborted before this system was started. */
    SKIPPED,
    /** A person asked for a rollback. */
    ROLLBACK_REQUESTED,
    /** A person took the system again, or it came back into the channel's scope. */
    TAKEN_AGAIN,
    /** The guard stopped hawkBit work outside Qawk (a rollout, an auto-assignment, an action) that targets this system. */
    GUARD_HOLD,
    /** hawkBit refused Qawk's requests for a while with 429 (its rate limit): order timeouts extended by the wait. */
    RATE_LIMITED,
    /** Qawk's records are behind hawkBit: actions contradict them (names the actions and what hawkBit shows). */
    DIVERGED,
    /** A person adopted what hawkBit shows for a divergent run: it took the state hawkBit's actions prove. */
    ADOPTED,
    /**
     * A device's photograph was rebuilt from hawkBit's action history: Qawk's own lost work (a restore, a standby
     * promoted) had already given it its set, so its "before" is the set it finished before that action.
     */
    PHOTOGRAPH_REBUILT
}
