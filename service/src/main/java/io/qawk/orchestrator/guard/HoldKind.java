package io.qawk.orchestrator.guard;

/** What the guard did to a piece of hawkBit work. */
public enum HoldKind {
    /** A running rollout paused ({@code POST /rollouts/{id}/pause}). */
    PAUSED,
    /** A rollout waiting for approval refused ({@code POST /rollouts/{id}/deny}). */
    DENIED,
    /** A target filter's auto-assigned set taken off, the set kept to give back. */
    SWITCHED_OFF,
    /** An open action on a member cancelled. */
    CANCELLED
}
