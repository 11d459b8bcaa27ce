package io.qawk.orchestrator.deployment.engine;

/**
 * A deployment was started or commanded: fired in the command's transaction, it brings the engine's next pass forward
 * once that transaction committed ({@link PassLoop#wake}).
 */
public record EngineWake(long deploymentId, String why) {
}
