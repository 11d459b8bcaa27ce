package io.qawk.orchestrator.observation;

/** A device of a run given {@code setId}, and the hawkBit action that carries it when known: what a pass observes. */
public record InFlight(String controllerId, long setId, Long actionId) {
}
