package io.qawk.orchestrator.manifest;

/**
 * Implemented by domains that use manifests (system deployments) to refuse a change or removal that would pull a
 * manifest out from under them. Every CDI implementation is asked before a manifest is replaced or deleted.
 */
public interface ManifestUsage {

    /** Throws {@link io.qawk.orchestrator.common.ConflictException} when the manifest may not change or go now. */
    void checkChange(Manifest manifest);
}
