package io.qawk.orchestrator.deployment.model;

/**
 * A deployment reached an end state (FINISHED, FAILED, ABORTED): fired in the transaction that ended it, so an
 * observer {@code during = AFTER_SUCCESS} sees it once that end is committed (the evidence record is sealed then).
 */
public record DeploymentEnded(long deploymentId) {
}
