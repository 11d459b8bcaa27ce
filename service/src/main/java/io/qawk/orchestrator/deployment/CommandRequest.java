package io.qawk.orchestrator.deployment;

/** The optional body of a run command: why a person is doing it. */
public record CommandRequest(String reason) {
}
