package io.qawk.orchestrator.deployment.model;

/** Why a run goes back: a device failed (counts against maxFailed) or a person asked for it. */
public enum RollbackCause {
    FAILURE, MANUAL
}
