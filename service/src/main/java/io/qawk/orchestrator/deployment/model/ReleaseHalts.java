package io.qawk.orchestrator.deployment.model;

/**
 * Whether the channel release a deployment belongs to is halted: a halted release starts no new system. Asked by the
 * deployment engine, implemented by the channels (so that deployments do not depend on them); absent, nothing is
 * halted.
 */
public interface ReleaseHalts {

    boolean halted(long deploymentId);
}
