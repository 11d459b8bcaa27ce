package io.qawk.orchestrator.deployment;

/**
 * Whether the channel release a deployment belongs to is halted: a halted release starts no new system. Implemented
 * by the channels (so that deployments do not depend on them); absent, nothing is halted.
 */
public interface ReleaseHalts {

    boolean halted(long deploymentId);
}
